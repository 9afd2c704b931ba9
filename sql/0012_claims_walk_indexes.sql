-- The workers claim undecided events in acceptance order. Ordered by seq, that is a walk along an index of one day
-- partition after another, stopping after one batch. Right after a burst fills a day partition, its statistics
-- still describe it as nearly empty, and the planner then prefers to read every pending event, sort them all (on
-- disk once tens of thousands wait) and keep the first batch: hundreds of milliseconds per claim, growing with the
-- backlog, exactly when the workers must catch up. Sorting is therefore switched off for this one query, which
-- leaves the planner only the index walks.
CREATE FUNCTION herald_claim_events(batch integer)
RETURNS TABLE (
    seq bigint, source text, id text, category_id text, document text, fanout_after text, recipients_decided integer
)
LANGUAGE sql
VOLATILE
SET enable_sort = off
AS $$
    SELECT e.seq, e.source, e.id, e.category_id, e.document::text, e.fanout_after, e.recipients_decided
    FROM events e
    WHERE e.state = 'pending'
    ORDER BY e.seq
    LIMIT batch
    FOR UPDATE SKIP LOCKED
$$;
