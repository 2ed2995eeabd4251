-- A one-time sign-in link (ADR 007): a new action-code kind and a new e-mail template key.
-- The action-code value is not used in this run, so ADD VALUE is enough. The template key is used by
-- the default row below, which ADD VALUE would forbid until the transaction commits (every pending
-- migration runs in one), so that type is rebuilt with every value, as 0007 and 0014 did.
ALTER TYPE "public"."action_code_kind" ADD VALUE 'sign_in_link';--> statement-breakpoint
ALTER TYPE "public"."email_template_key" RENAME TO "email_template_key_old";--> statement-breakpoint
CREATE TYPE "public"."email_template_key" AS ENUM('activate_account', 'colleague_invite', 'reminder', 'reset_password', 'verify_email', 'response_ready', 'setup_admin', 'programme_open', 'admin_invite', 'response_reopened', 'sign_in_link');--> statement-breakpoint
ALTER TABLE "email_templates" ALTER COLUMN "key" TYPE "public"."email_template_key" USING "key"::text::"public"."email_template_key";--> statement-breakpoint
ALTER TABLE "email_outbox" ALTER COLUMN "template_key" TYPE "public"."email_template_key" USING "template_key"::text::"public"."email_template_key";--> statement-breakpoint
DROP TYPE "public"."email_template_key_old";--> statement-breakpoint
-- The new key's default copy (equal to DEFAULT_TEMPLATES; tests/integration/email/templates.test.ts).
INSERT INTO "email_templates" ("key", "brand_id", "subject", "body") VALUES
('sign_in_link', NULL, $tpl$Your sign-in link for the {{brandName}} feedback portal$tpl$, $tpl$Hello {{recipientName}},

We received a request for a one-time link to sign in to your account on the {{brandName}} 360° feedback portal. To sign in, open this link and press the button on the page it shows:

{{link}}

The link works once and expires after 15 minutes. The browser you sign in with is remembered, so it will not be held up by sign-in limits next time.

If you did not ask for this link, you can safely ignore this e-mail: your account and your password stay as they are.

Kind regards,
The {{brandName}} team$tpl$)
ON CONFLICT DO NOTHING;
