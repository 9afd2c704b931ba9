-- A delivery that goes back to the queue after a lease (the lease ran out, its consumer asked for a retry, the relay
-- could not publish it) goes back only if it would be queued now. Two things can happen while a sender holds it:
--
--   * its device is deleted, deactivated or moved to another user. Migration 0006 withdraws the device's queued
--     deliveries then and leaves leased ones to their sender; a leased one must not come back and be sent again,
--     to the old owner's installation or to the new owner.
--   * a newer push with its coalesce key (a badge-only update, say) was queued: the writers replace only queued
--     rows, so the newer one got a row of its own, and may be queued, in flight or sent by now. The returning one
--     is outdated; and two queued rows of one key on one day would also break the unique index, failing every
--     claim that takes expired leases back.
--
-- Either way the returning row ends as expired, with the reason in its detail. Newer means a later created_at (then
-- a greater id); when rows of one key come back in the same statement, the newest stays queued and the others end.
-- The statements that put rows back set finished_at to the service's clock; a row that really goes back has it
-- cleared here, so a row that ends keeps that time and no time comes from the database's clock.
-- Every row of a key, whatever its state, for the check above; only keyed rows are in it.
CREATE INDEX deliveries_coalesce_key ON deliveries (coalesce_key, created_at) WHERE coalesce_key IS NOT NULL;

CREATE FUNCTION deliveries_requeue_only_if_current() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (
        SELECT 1 FROM devices
        WHERE installation_id = NEW.installation_id AND user_id = NEW.user_id AND active
    ) THEN
        NEW.state := 'expired';
        NEW.detail := 'withdrawn: its device was removed, deactivated or moved to another user';
    ELSIF NEW.coalesce_key IS NOT NULL THEN
        IF EXISTS (
            SELECT 1 FROM deliveries
            WHERE coalesce_key = NEW.coalesce_key AND id <> NEW.id AND (created_at, id) > (NEW.created_at, NEW.id)
        ) THEN
            NEW.state := 'expired';
            NEW.detail := 'replaced by a newer push with the same coalesce key';
        ELSE
            -- Only a row put back earlier by the same statement can be queued and older.
            UPDATE deliveries
            SET state = 'expired', finished_at = NEW.finished_at,
                detail = 'replaced by a newer push with the same coalesce key'
            WHERE coalesce_key = NEW.coalesce_key AND state = 'queued' AND id <> NEW.id;
        END IF;
    END IF;
    IF NEW.state = 'queued' THEN
        NEW.finished_at := NULL;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER deliveries_requeued_only_if_current
    BEFORE UPDATE OF state ON deliveries
    FOR EACH ROW WHEN (OLD.state = 'leased' AND NEW.state = 'queued')
    EXECUTE FUNCTION deliveries_requeue_only_if_current();
