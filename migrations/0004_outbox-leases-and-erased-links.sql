ALTER TABLE "email_outbox" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "link_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "body_erased_at" timestamp with time zone;--> statement-breakpoint
-- Messages written before this migration: mark those whose template carries a one-time link, with
-- the longest the link can live (the action code lifetimes), and erase the bodies already sent.
UPDATE "email_outbox" SET "link_expires_at" = "created_at" + CASE "template_key"
    WHEN 'reset_password' THEN interval '1 hour'
    WHEN 'verify_email' THEN interval '24 hours'
    WHEN 'setup_admin' THEN interval '24 hours'
    WHEN 'activate_account' THEN interval '7 days'
    ELSE interval '60 days' END
  WHERE "template_key" IN ('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'setup_admin');--> statement-breakpoint
UPDATE "email_outbox" SET "html" = '', "text" = '', "body_erased_at" = now()
  WHERE "status" = 'sent' AND "link_expires_at" IS NOT NULL;
