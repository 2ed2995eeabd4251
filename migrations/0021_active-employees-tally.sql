-- "Active employees" on the dashboard (issue 15, B12): an employee who has activated their account
-- (a password set) and is not disabled, as the employee list's "active" state means. The tally
-- `employees` (not disabled, activated or not) stays; `active_employees` is new, kept by the same
-- statement-level trigger on users (ADR 010), so the dashboard shows both without a count(*).
CREATE OR REPLACE FUNCTION tally_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  employees bigint := 0;
  active bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT employees + count(*),
           active + count(*) FILTER (WHERE password_hash IS NOT NULL)
    INTO employees, active
    FROM tally_new WHERE role = 'employee' AND disabled_at IS NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT employees - count(*),
           active - count(*) FILTER (WHERE password_hash IS NOT NULL)
    INTO employees, active
    FROM tally_old WHERE role = 'employee' AND disabled_at IS NULL;
  END IF;
  INSERT INTO tallies (name, delta)
  SELECT name, delta FROM (VALUES ('employees', employees), ('active_employees', active)) AS c (name, delta)
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
  SELECT 'active_employees', count(*) FROM users
  WHERE role = 'employee' AND disabled_at IS NULL AND password_hash IS NOT NULL
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
DROP TRIGGER users_tally_truncate ON users;
--> statement-breakpoint
CREATE TRIGGER users_tally_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION tally_truncated('employees', 'active_employees');
--> statement-breakpoint
SELECT tally_recount();
