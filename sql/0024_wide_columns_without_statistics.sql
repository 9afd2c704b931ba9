-- The wide columns that no statement filters, joins or orders by get no planner statistics, so that ANALYZE stops
-- sampling and sorting them: the events' documents and body hashes, the deliveries' bodies, headers and details,
-- the decisions' details and delivery ids. Every other column keeps PostgreSQL's default target.
--
-- Autovacuum analyzes each day partition of these insert-heavy tables again and again as it grows. CPU of one
-- ANALYZE on a copy of the benchmark's rows (85,179 deliveries, 47,611 events, 47,600 decisions; two rounds each):
-- deliveries 472 and 496 ms before, 354 and 360 ms after; events 201 and 200 ms, 109 and 114 ms; decisions 186
-- and 158 ms, 133 and 117 ms.
--
-- A partition created later does not take its parent's statistics targets, so `herald_partition_tune`, which every
-- new partition of these tables now goes through, sets them too.

ALTER TABLE events ALTER COLUMN document SET STATISTICS 0, ALTER COLUMN body_hash SET STATISTICS 0;
ALTER TABLE deliveries
    ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN headers SET STATISTICS 0, ALTER COLUMN detail SET STATISTICS 0;
ALTER TABLE decisions ALTER COLUMN detail SET STATISTICS 0, ALTER COLUMN delivery_ids SET STATISTICS 0;

CREATE OR REPLACE FUNCTION herald_partition_tune(partition_name text) RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    parent text := (SELECT p.relname FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
                    WHERE i.inhrelid = to_regclass(partition_name));
BEGIN
    -- The queues are vacuumed by a fixed count of dead rows (see 0015_queue_partition_vacuum.sql).
    IF parent IN ('events', 'deliveries') THEN
        EXECUTE format(
            'ALTER TABLE %I SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, '
                || 'autovacuum_vacuum_cost_delay = 0)',
            partition_name);
    END IF;
    IF parent = 'events' THEN
        EXECUTE format('ALTER TABLE %I ALTER COLUMN document SET STATISTICS 0, '
                       || 'ALTER COLUMN body_hash SET STATISTICS 0', partition_name);
    ELSIF parent = 'deliveries' THEN
        EXECUTE format('ALTER TABLE %I ALTER COLUMN body SET STATISTICS 0, ALTER COLUMN headers SET STATISTICS 0, '
                       || 'ALTER COLUMN detail SET STATISTICS 0', partition_name);
    ELSIF parent = 'decisions' THEN
        EXECUTE format('ALTER TABLE %I ALTER COLUMN detail SET STATISTICS 0, '
                       || 'ALTER COLUMN delivery_ids SET STATISTICS 0', partition_name);
    END IF;
END;
$$;

CREATE OR REPLACE FUNCTION herald_partitions_ensure(first_day integer, last_day integer) RETURNS SETOF text
    LANGUAGE plpgsql
    SET lock_timeout = '5s'
AS $$
DECLARE
    day_number integer;
    table_name text;
    partition_name text;
    low bigint;
    high bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('herald_partitions'));
    FOR day_number IN first_day..last_day LOOP
        FOREACH table_name IN ARRAY ARRAY['events', 'decisions', 'digests', 'deliveries'] LOOP
            partition_name := table_name || '_' || to_char(date '1970-01-01' + day_number, 'YYYYMMDD');
            CONTINUE WHEN to_regclass(partition_name) IS NOT NULL;
            CONTINUE WHEN EXISTS (
                SELECT 1 FROM herald_partitions() p
                WHERE p.parent = table_name AND p.legacy AND p.end_day > day_number);
            IF table_name IN ('events', 'decisions') THEN
                low := day_number::bigint << 44;
                high := (day_number + 1)::bigint << 44;
            ELSE
                low := day_number;
                high := day_number + 1;
            END IF;
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
                           partition_name, table_name, low, high);
            PERFORM herald_partition_tune(partition_name);
            RETURN NEXT partition_name;
        END LOOP;
    END LOOP;
END;
$$;
