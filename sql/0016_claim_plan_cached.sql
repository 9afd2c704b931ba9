-- The workers' claim keeps its plan for the session.
--
-- `herald_claim_events` was a SQL function. A SQL function with a SET clause is never inlined, and PostgreSQL 15
-- parses and plans its body again on every call: with nothing waiting that was 0.59 ms per claim, against 0.09 ms
-- for the same query in PL/pgSQL, whose plan is made once per session and reused. At 1,000 events/s the workers
-- claim about 180 times a second, most of them small or empty. The query, its order and its SKIP LOCKED are
-- unchanged; sorting stays off so that the plan is the index walk whatever a fresh partition's statistics say.

CREATE OR REPLACE FUNCTION herald_claim_events(batch integer)
RETURNS TABLE (
    seq bigint, source text, id text, category_id text, document text, fanout_after text, recipients_decided integer
)
LANGUAGE plpgsql
VOLATILE
SET enable_sort = off
AS $$
BEGIN
    RETURN QUERY
        SELECT e.seq, e.source, e.id, e.category_id, e.document::text, e.fanout_after, e.recipients_decided
        FROM events e
        WHERE e.state = 'pending'
        ORDER BY e.seq
        LIMIT batch
        FOR UPDATE SKIP LOCKED;
END;
$$;
