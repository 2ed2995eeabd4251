ALTER TABLE "companies" ADD COLUMN "feedback_request_cap" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "reopen_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "reopen_request_note" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "manager_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_manager_id_fk" FOREIGN KEY ("manager_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "responses_reopen_requested_index" ON "responses" USING btree ("reopen_requested_at","id") WHERE "responses"."reopen_requested_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "users_manager_id_index" ON "users" USING btree ("manager_id");--> statement-breakpoint
CREATE INDEX "users_company_id_department_index" ON "users" USING btree ("company_id","department");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_feedback_request_cap_range" CHECK ("companies"."feedback_request_cap" BETWEEN 1 AND 50);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_manager_not_self" CHECK ("users"."manager_id" <> "users"."id");