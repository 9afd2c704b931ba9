-- A worker's claim can start after the batches its process already has in flight.
--
-- Workers claim undecided events in acceptance order with FOR UPDATE SKIP LOCKED. With four workers deciding a
-- backlog, every claim meets the batches its siblings claimed just before it: the lowest pending seqs, all locked.
-- Skipping a locked row is not free (a tuple lock tried and refused, then the locking transaction looked up): with
-- 1,500 rows locked ahead of it, a claim of 500 took 5.4 ms against 1.6 ms with none, about 7.6 µs per event.
--
-- `after` is the highest seq of the batches the calling process has in flight. The walk starts right after it.
-- When that finds less than a batch (the backlog is short, or an event committed late with a lower seq), the
-- walk goes on below `after`, skipping what is locked as before. NULL walks from the start, as the one-argument
-- form does. The rows come back in two runs, above `after` first; the caller orders them by seq.
--
-- The one-argument form stays for instances of the previous version during an upgrade.

CREATE FUNCTION herald_claim_events(batch integer, after bigint)
RETURNS TABLE (
    seq bigint, source text, id text, category_id text, document text, fanout_after text, recipients_decided integer
)
LANGUAGE plpgsql
VOLATILE
SET enable_sort = off
AS $$
DECLARE
    claimed integer;
BEGIN
    RETURN QUERY
        SELECT e.seq, e.source, e.id, e.category_id, e.document::text, e.fanout_after, e.recipients_decided
        FROM events e
        WHERE e.state = 'pending' AND e.seq > COALESCE(after, -1)
        ORDER BY e.seq
        LIMIT batch
        FOR UPDATE SKIP LOCKED;
    GET DIAGNOSTICS claimed = ROW_COUNT;
    IF after IS NOT NULL AND claimed < batch THEN
        RETURN QUERY
            SELECT e.seq, e.source, e.id, e.category_id, e.document::text, e.fanout_after, e.recipients_decided
            FROM events e
            WHERE e.state = 'pending' AND e.seq <= after
            ORDER BY e.seq
            LIMIT batch - claimed
            FOR UPDATE SKIP LOCKED;
    END IF;
END;
$$;
