-- The colleague directory's type-ahead (issue 18 §3, ADR 042) matches one lower-cased text per
-- employee, written when the row is: at seed:scale a search of a common word read the company's
-- people with four ILIKEs each (over 2x the small seed's time); one LIKE on stored text is a third
-- of that, and one trigram index replaces the department and job title ones 0026 added for it.
DROP INDEX "users_department_trgm";--> statement-breakpoint
DROP INDEX "users_job_title_trgm";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "directory_text" text GENERATED ALWAYS AS (lower(display_name || ' ' || email || ' ' || coalesce(department, '') || ' ' || coalesce(job_title, ''))) STORED;--> statement-breakpoint
CREATE INDEX "users_directory_trgm" ON "users" USING gin ("directory_text" gin_trgm_ops) WHERE "users"."role" = 'employee';