-- A device that is deleted (sign-out, user deletion, its token moving elsewhere) or deactivated (dead-token
-- feedback) must receive nothing more: its unsent queued deliveries go with it, whatever path removed it.
-- Leased deliveries are left alone; a sender already holds them and reports their outcome.
CREATE FUNCTION devices_drop_queued_deliveries() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM deliveries WHERE installation_id = OLD.installation_id AND state = 'queued';
    RETURN NULL;
END;
$$;

CREATE TRIGGER devices_deleted_drop_queued_deliveries
    AFTER DELETE ON devices
    FOR EACH ROW EXECUTE FUNCTION devices_drop_queued_deliveries();

CREATE TRIGGER devices_deactivated_drop_queued_deliveries
    AFTER UPDATE OF active ON devices
    FOR EACH ROW WHEN (OLD.active AND NOT NEW.active)
    EXECUTE FUNCTION devices_drop_queued_deliveries();

-- A deleted user's pending timers and per-user state go too; decisions stay as the record of what happened.
CREATE FUNCTION users_drop_pending_state() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM timers WHERE user_id = OLD.id;
    DELETE FROM collapse_groups WHERE user_id = OLD.id;
    DELETE FROM rate_buckets WHERE user_id = OLD.id;
    DELETE FROM unread_counts WHERE user_id = OLD.id;
    DELETE FROM silent_budgets WHERE user_id = OLD.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER users_deleted_drop_pending_state
    AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION users_drop_pending_state();
