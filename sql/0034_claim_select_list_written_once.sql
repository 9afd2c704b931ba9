-- The claim that starts after the batches in flight names its columns once.
--
-- `herald_claim_events(batch, after)` walks two ranges of pending seqs: above `after`, then, when that found less
-- than a batch, up to `after`. Each range is a plain bound on seq, so the walk stays an ordered scan of the pending
-- index and prunes the day partitions, and one statement serves both. What it returns and locks is unchanged.

CREATE OR REPLACE FUNCTION herald_claim_events(batch integer, after bigint)
RETURNS TABLE (
    seq bigint, source text, id text, category_id text, document text, fanout_after text, recipients_decided integer
)
LANGUAGE plpgsql
VOLATILE
SET enable_sort = off
AS $$
DECLARE
    claimed integer := 0;
    found integer;
    above bigint := COALESCE(after, -1);
    upto bigint := 9223372036854775807;
BEGIN
    LOOP
        RETURN QUERY
            SELECT e.seq, e.source, e.id, e.category_id, e.document::text, e.fanout_after, e.recipients_decided
            FROM events e
            WHERE e.state = 'pending' AND e.seq > above AND e.seq <= upto
            ORDER BY e.seq
            LIMIT batch - claimed
            FOR UPDATE SKIP LOCKED;
        GET DIAGNOSTICS found = ROW_COUNT;
        claimed := claimed + found;
        EXIT WHEN after IS NULL OR claimed >= batch OR upto = after;
        above := -1;
        upto := after;
    END LOOP;
END;
$$;
