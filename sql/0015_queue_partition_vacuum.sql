-- The day partitions of the two queues, events and deliveries, are vacuumed by a fixed count of dead rows rather
-- than by a fifth of the table.
--
-- A row leaves a queue by an update (`pending` to `decided`, `queued` to `sent`), which leaves its entry in the
-- queue's partial index (`events_pending`, the deliveries' claim index) until a vacuum removes it. Every claim walks
-- the index from its oldest entry, so it steps over every entry left since the last vacuum. With the default
-- threshold, a fifth of the partition, a day partition of millions of rows goes hundreds of thousands of decided
-- events between vacuums: at 1,000 events/s the claim took 3.9 ms, most of it that walk. With a threshold of
-- 20,000 dead rows and no cost delay, autovacuum cleans the partition at every naptime (one minute by default)
-- while work flows, so a claim steps over at most a minute's worth.

CREATE FUNCTION herald_partition_tune(partition_name text) RETURNS void
    LANGUAGE plpgsql
AS $$
BEGIN
    EXECUTE format(
        'ALTER TABLE %I SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000, '
            || 'autovacuum_vacuum_cost_delay = 0)',
        partition_name);
END;
$$;

SELECT herald_partition_tune(p.name) FROM herald_partitions() p WHERE p.parent IN ('events', 'deliveries');

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
            IF table_name IN ('events', 'deliveries') THEN
                PERFORM herald_partition_tune(partition_name);
            END IF;
            RETURN NEXT partition_name;
        END LOOP;
    END LOOP;
END;
$$;
