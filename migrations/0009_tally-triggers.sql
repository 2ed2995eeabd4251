-- Exact counts for the admin dashboard, kept by the database (ADR 010). Every statement that changes
-- one of them adds a row (name, delta) to tallies, from statement-level triggers that read the
-- statement's transition tables: a bulk insert of 10,000 employees adds one row, not 10,000. Rows are
-- only ever added here, never updated, so concurrent writers neither wait for each other nor
-- deadlock on a shared counter; the worker folds each name's rows into one (compactTallies).
-- tally_recount() counts from scratch: for a bulk load that ran with triggers off (seed:scale runs
-- with session_replication_role = replica).
--
-- What is counted (the same predicates in the trigger functions and in tally_recount):
--   employees      users with role employee and no disabled_at
--   submitted      assignments with status submitted
--   queued_emails  email_outbox rows queued or sending
--   failed_emails  email_outbox rows failed
CREATE FUNCTION tally_users() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  employees bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT employees + count(*) INTO employees
    FROM tally_new WHERE role = 'employee' AND disabled_at IS NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT employees - count(*) INTO employees
    FROM tally_old WHERE role = 'employee' AND disabled_at IS NULL;
  END IF;
  IF employees <> 0 THEN
    INSERT INTO tallies (name, delta) VALUES ('employees', employees);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION tally_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  submitted bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT submitted + count(*) INTO submitted FROM tally_new WHERE status = 'submitted';
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT submitted - count(*) INTO submitted FROM tally_old WHERE status = 'submitted';
  END IF;
  IF submitted <> 0 THEN
    INSERT INTO tallies (name, delta) VALUES ('submitted', submitted);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION tally_email_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  queued bigint := 0;
  failed bigint := 0;
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT queued + count(*) FILTER (WHERE status IN ('queued', 'sending')),
           failed + count(*) FILTER (WHERE status = 'failed')
    INTO queued, failed FROM tally_new;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT queued - count(*) FILTER (WHERE status IN ('queued', 'sending')),
           failed - count(*) FILTER (WHERE status = 'failed')
    INTO queued, failed FROM tally_old;
  END IF;
  INSERT INTO tallies (name, delta)
  SELECT name, delta FROM (VALUES ('queued_emails', queued), ('failed_emails', failed)) AS c (name, delta)
  WHERE delta <> 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- TRUNCATE empties the table: its counts are zero.
CREATE FUNCTION tally_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tallies WHERE name = ANY (TG_ARGV);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION tally_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Writers to the counted tables wait until the end of the caller's transaction, so no change is
  -- both counted here and added by a trigger, or missed by both.
  LOCK TABLE users, assignments, email_outbox IN SHARE MODE;
  DELETE FROM tallies;
  INSERT INTO tallies (name, delta)
  SELECT 'employees', count(*) FROM users WHERE role = 'employee' AND disabled_at IS NULL
  UNION ALL
  SELECT 'submitted', count(*) FROM assignments WHERE status = 'submitted'
  UNION ALL
  SELECT 'queued_emails', count(*) FROM email_outbox WHERE status IN ('queued', 'sending')
  UNION ALL
  SELECT 'failed_emails', count(*) FROM email_outbox WHERE status = 'failed';
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_tally_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_users();
--> statement-breakpoint
CREATE TRIGGER users_tally_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS tally_old NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_users();
--> statement-breakpoint
CREATE TRIGGER users_tally_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS tally_old FOR EACH STATEMENT EXECUTE FUNCTION tally_users();
--> statement-breakpoint
CREATE TRIGGER users_tally_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION tally_truncated('employees');
--> statement-breakpoint
CREATE TRIGGER assignments_tally_insert AFTER INSERT ON assignments
  REFERENCING NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_assignments();
--> statement-breakpoint
CREATE TRIGGER assignments_tally_update AFTER UPDATE ON assignments
  REFERENCING OLD TABLE AS tally_old NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_assignments();
--> statement-breakpoint
CREATE TRIGGER assignments_tally_delete AFTER DELETE ON assignments
  REFERENCING OLD TABLE AS tally_old FOR EACH STATEMENT EXECUTE FUNCTION tally_assignments();
--> statement-breakpoint
CREATE TRIGGER assignments_tally_truncate AFTER TRUNCATE ON assignments
  FOR EACH STATEMENT EXECUTE FUNCTION tally_truncated('submitted');
--> statement-breakpoint
CREATE TRIGGER email_outbox_tally_insert AFTER INSERT ON email_outbox
  REFERENCING NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_email_outbox();
--> statement-breakpoint
CREATE TRIGGER email_outbox_tally_update AFTER UPDATE ON email_outbox
  REFERENCING OLD TABLE AS tally_old NEW TABLE AS tally_new FOR EACH STATEMENT EXECUTE FUNCTION tally_email_outbox();
--> statement-breakpoint
CREATE TRIGGER email_outbox_tally_delete AFTER DELETE ON email_outbox
  REFERENCING OLD TABLE AS tally_old FOR EACH STATEMENT EXECUTE FUNCTION tally_email_outbox();
--> statement-breakpoint
CREATE TRIGGER email_outbox_tally_truncate AFTER TRUNCATE ON email_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION tally_truncated('queued_emails', 'failed_emails');
--> statement-breakpoint
-- The counts of what is already there (the triggers above are in place first, in this same
-- transaction, and the recount's lock keeps writers out until it commits).
SELECT tally_recount();
