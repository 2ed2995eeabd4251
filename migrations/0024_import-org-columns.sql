ALTER TABLE "employee_import_rows" ADD COLUMN "manager_email" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "employee_import_rows" ADD COLUMN "manager_line" integer;