ALTER TABLE "employee_import_rows" ADD COLUMN "duplicate_of" integer;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD COLUMN "company_suggestion" text;