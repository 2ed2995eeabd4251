CREATE TYPE "public"."release_mode" AS ENUM('admin', 'clock');--> statement-breakpoint
CREATE TABLE "report_release_answers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"release_response_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"numeric_value" integer,
	"text_value" text,
	"choices" jsonb,
	"not_applicable" boolean DEFAULT false NOT NULL,
	"source_answer_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_release_responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"release_id" uuid NOT NULL,
	"relationship" "relationship" NOT NULL,
	"rater_key" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_releases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scheme_id" uuid NOT NULL,
	"subject_id" uuid NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_by" uuid,
	"mode" "release_mode" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assignments" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_release_answers" ADD CONSTRAINT "report_release_answers_release_id_report_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."report_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_release_answers" ADD CONSTRAINT "report_release_answers_release_response_id_report_release_responses_id_fk" FOREIGN KEY ("release_response_id") REFERENCES "public"."report_release_responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_release_answers" ADD CONSTRAINT "report_release_answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_release_responses" ADD CONSTRAINT "report_release_responses_release_id_report_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."report_releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_scheme_id_schemes_id_fk" FOREIGN KEY ("scheme_id") REFERENCES "public"."schemes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_releases" ADD CONSTRAINT "report_releases_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_release_answers_release_question_index" ON "report_release_answers" USING btree ("release_id","question_id");--> statement-breakpoint
CREATE INDEX "report_release_answers_release_response_id_index" ON "report_release_answers" USING btree ("release_response_id");--> statement-breakpoint
CREATE INDEX "report_release_answers_question_id_index" ON "report_release_answers" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_release_responses_key_unique" ON "report_release_responses" USING btree ("release_id","rater_key");--> statement-breakpoint
CREATE INDEX "report_releases_latest_index" ON "report_releases" USING btree ("scheme_id","subject_id","released_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "report_releases_subject_id_index" ON "report_releases" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "report_releases_released_by_index" ON "report_releases" USING btree ("released_by");--> statement-breakpoint
CREATE UNIQUE INDEX "report_releases_clock_unique" ON "report_releases" USING btree ("scheme_id","subject_id") WHERE "report_releases"."mode" = 'clock';