-- The workers' progress update keeps one plan for the session.
--
-- A batch marks its events decided by one UPDATE on the partitioned events table, joined to the batch's seqs
-- (`unnest` of array parameters) and bounded by the batch's seq range, which prunes the day partitions when the
-- statement starts. As a plain prepared statement it was planned again on every call: the plan cache compares a
-- generic plan's estimate, which counts every partition and assumes ten elements per array, with a custom plan of
-- one partition, and the generic plan never wins. At 1,000 events/s that was 1.9 ms of planning per batch, more
-- than the update itself. The generic plan is the right one (pruning at the start of each call keeps it on the
-- batch's partition), so this function asks for it. The statement is unchanged.

CREATE FUNCTION herald_record_progress(
    decided_at timestamptz, seqs bigint[], done boolean[], afters text[], recipients integer[], first_seq bigint,
    last_seq bigint, outcomes text[]
) RETURNS integer
LANGUAGE plpgsql
VOLATILE
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    updated integer;
BEGIN
    UPDATE events AS e
    SET state = CASE WHEN p.done THEN 'decided' ELSE 'pending' END,
        decided_at = CASE WHEN p.done THEN herald_record_progress.decided_at END,
        fanout_after = CASE WHEN p.done THEN NULL ELSE p.after END,
        recipients_decided = e.recipients_decided + p.recipients,
        outcome = COALESCE(p.outcome, e.outcome)
    FROM unnest(seqs, done, afters, recipients, outcomes) AS p(seq, done, after, recipients, outcome)
    WHERE e.seq = p.seq AND e.seq BETWEEN first_seq AND last_seq;
    GET DIAGNOSTICS updated = ROW_COUNT;
    RETURN updated;
END;
$$;
