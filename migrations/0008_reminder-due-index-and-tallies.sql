CREATE TABLE "tallies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tallies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"delta" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "assignments_reminder_due_index" ON "assignments" USING btree ("scheme_id",coalesce("last_reminder_at", "invited_at", "created_at"),"id") WHERE "assignments"."status" IN ('pending', 'in_progress');