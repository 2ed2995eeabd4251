DROP INDEX "email_outbox_status_created_at_index";--> statement-breakpoint
DROP INDEX "email_outbox_recipient_index";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "brand_id" uuid;--> statement-breakpoint
ALTER TABLE "email_templates" ADD COLUMN "html_body" text;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "email_outbox_status_created_idx" ON "email_outbox" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "email_outbox_template_created_idx" ON "email_outbox" USING btree ("template_key","created_at","id");--> statement-breakpoint
CREATE INDEX "email_outbox_recipient_created_idx" ON "email_outbox" USING btree ("recipient","created_at","id");--> statement-breakpoint
CREATE INDEX "email_outbox_recipient_prefix_idx" ON "email_outbox" USING btree ("recipient" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "email_outbox_brand_idx" ON "email_outbox" USING btree ("brand_id") WHERE "email_outbox"."brand_id" IS NOT NULL;--> statement-breakpoint
-- Outbox counts per state for the admin outbox tab (ADR 010's tallies, ADR 016): queued_emails and
-- failed_emails stay as they were (queued_emails counts queued and sending); sending_emails and
-- sent_emails are new, so every state's count is a sum over the small tallies table.
CREATE OR REPLACE FUNCTION tally_email_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  queued bigint := 0;
  failed bigint := 0;
  sending bigint := 0;
  sent bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT queued + count(*) FILTER (WHERE status IN ('queued', 'sending')),
           failed + count(*) FILTER (WHERE status = 'failed'),
           sending + count(*) FILTER (WHERE status = 'sending'),
           sent + count(*) FILTER (WHERE status = 'sent')
    INTO queued, failed, sending, sent FROM tally_new;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT queued - count(*) FILTER (WHERE status IN ('queued', 'sending')),
           failed - count(*) FILTER (WHERE status = 'failed'),
           sending - count(*) FILTER (WHERE status = 'sending'),
           sent - count(*) FILTER (WHERE status = 'sent')
    INTO queued, failed, sending, sent FROM tally_old;
  END IF;
  INSERT INTO tallies (name, delta)
  SELECT name, delta FROM (VALUES ('queued_emails', queued), ('failed_emails', failed),
    ('sending_emails', sending), ('sent_emails', sent)) AS c (name, delta)
  WHERE delta <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tally_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE users, assignments, email_outbox IN SHARE MODE;
  DELETE FROM tallies;
  INSERT INTO tallies (name, delta)
  SELECT 'employees', count(*) FROM users WHERE role = 'employee' AND disabled_at IS NULL
  UNION ALL
  SELECT 'submitted', count(*) FROM assignments WHERE status = 'submitted'
  UNION ALL
  SELECT 'queued_emails', count(*) FROM email_outbox WHERE status IN ('queued', 'sending')
  UNION ALL
  SELECT 'failed_emails', count(*) FROM email_outbox WHERE status = 'failed'
  UNION ALL
  SELECT 'sending_emails', count(*) FROM email_outbox WHERE status = 'sending'
  UNION ALL
  SELECT 'sent_emails', count(*) FROM email_outbox WHERE status = 'sent';
END
$$;
--> statement-breakpoint
DROP TRIGGER email_outbox_tally_truncate ON email_outbox;
--> statement-breakpoint
CREATE TRIGGER email_outbox_tally_truncate AFTER TRUNCATE ON email_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION tally_truncated('queued_emails', 'failed_emails', 'sending_emails', 'sent_emails');
--> statement-breakpoint
SELECT tally_recount();
