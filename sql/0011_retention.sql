-- Retention by UTC day: events, decisions, digests and deliveries become tables partitioned by day, so history
-- older than HERALD_RETENTION_DAYS goes by dropping whole partitions, never by DELETE.
--
-- * An event's seq carries its day: day * 2^44 + a global counter, where day counts UTC days since 1970-01-01 of
--   the storing transaction. Seqs still grow in acceptance order. Decisions are partitioned by their event's
--   seq, so an event and its decisions share a partition and go together.
-- * Digests and deliveries carry the day they were stored in `stored_day`, set by default.
-- * A partitioned table's unique index must contain the partition key, so the idempotency key of events,
--   (source, id), lives in `event_keys`: one narrow, unpartitioned row per stored event. It is trimmed together
--   with the partitions of its events.
--
-- Partitions are named after their day (`events_20261130`). `herald_partitions_ensure` creates them ahead of time;
-- the service calls it at start and every hour. Rows stored before this migration stay in one partition per
-- table, `<table>_before_<day>`, dropped once that day is past retention.

CREATE FUNCTION herald_day_number(at timestamptz) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN floor(extract(epoch FROM at) / 86400)::integer;

CREATE SEQUENCE event_counter AS bigint;
SELECT setval('event_counter', COALESCE((SELECT max(seq) FROM events), 0) + 1, false);

-- The next event seq: the storing transaction's day in the high bits, the counter below.
CREATE FUNCTION herald_next_event_seq() RETURNS bigint
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
    RETURN (herald_day_number(now())::bigint << 44) + nextval('event_counter');

ALTER TABLE events RENAME TO events_unpartitioned;
ALTER TABLE decisions RENAME TO decisions_unpartitioned;
ALTER TABLE digests RENAME TO digests_unpartitioned;
ALTER TABLE deliveries RENAME TO deliveries_unpartitioned;

CREATE TABLE events (
    seq bigint NOT NULL DEFAULT herald_next_event_seq(),
    source text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    body_hash text NOT NULL,
    document jsonb NOT NULL,
    state text NOT NULL DEFAULT 'pending',
    accepted_at timestamptz NOT NULL,
    decided_at timestamptz,
    fanout_after text COLLATE "C",
    recipients_decided integer NOT NULL DEFAULT 0,
    CONSTRAINT events_state_valid CHECK (state IN ('pending', 'decided')),
    CONSTRAINT events_decided_consistent CHECK ((state = 'decided') = (decided_at IS NOT NULL)),
    CONSTRAINT events_body_hash_format CHECK (body_hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT events_document_object CHECK (jsonb_typeof(document) = 'object'),
    CONSTRAINT events_recipients_decided_valid CHECK (recipients_decided >= 0)
) PARTITION BY RANGE (seq);

CREATE TABLE decisions (
    event_seq bigint NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    outcome text NOT NULL,
    detail text,
    deliver_at timestamptz,
    notification_id text COLLATE "C",
    collapse_id text,
    badge integer,
    delivery_ids text[] NOT NULL DEFAULT '{}',
    item_id text COLLATE "C",
    thread_id text COLLATE "C",
    counts_unread boolean NOT NULL DEFAULT false,
    decided_at timestamptz NOT NULL,
    read_at timestamptz,
    feed_seq bigint,
    CONSTRAINT decisions_outcome_valid CHECK (outcome IN (
        'delivered', 'deferred.quiet_hours', 'silenced.quiet_hours', 'dropped.quiet_hours', 'suppressed.preference',
        'suppressed.muted', 'suppressed.expired', 'suppressed.unknown_user', 'suppressed.actor', 'rate_limited',
        'collapsed', 'digested.preference', 'no_devices', 'rejected.unknown_category', 'rejected.archived_category',
        'read'
    )),
    CONSTRAINT decisions_unread_needs_notification CHECK (NOT counts_unread OR notification_id IS NOT NULL),
    CONSTRAINT decisions_feed_seq_valid CHECK (feed_seq IS NULL OR (feed_seq >= 1 AND notification_id IS NOT NULL))
) PARTITION BY RANGE (event_seq);

CREATE TABLE digests (
    notification_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    collapse_key text NOT NULL,
    category_id text NOT NULL,
    outcome text NOT NULL,
    detail text,
    deliver_at timestamptz,
    event_count integer,
    -- Of those, the events held back into the digest (decided `collapsed`); the rest is the burst's first event,
    -- which went out on its own. NULL for digests stored before this column.
    folded integer,
    delivery_ids text[] NOT NULL DEFAULT '{}',
    decided_at timestamptz NOT NULL,
    stored_day integer NOT NULL DEFAULT herald_day_number(now()),
    CONSTRAINT digests_event_count_valid CHECK (event_count >= 0),
    CONSTRAINT digests_folded_valid CHECK (folded >= 0 AND folded <= event_count)
) PARTITION BY RANGE (stored_day);

CREATE TABLE deliveries (
    id text COLLATE "C" NOT NULL,
    notification_id text COLLATE "C",
    event_source text COLLATE "C",
    event_id text COLLATE "C",
    user_id text COLLATE "C" NOT NULL,
    installation_id text COLLATE "C" NOT NULL,
    platform text NOT NULL,
    environment text NOT NULL,
    token text NOT NULL,
    kind text NOT NULL,
    headers jsonb NOT NULL,
    body text NOT NULL,
    collapse_id text,
    coalesce_key text COLLATE "C",
    priority smallint NOT NULL,
    created_at timestamptz NOT NULL,
    available_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    state text NOT NULL DEFAULT 'queued',
    leased_until timestamptz,
    lease_id text,
    attempts integer NOT NULL DEFAULT 0,
    finished_at timestamptz,
    detail text,
    relayed_at timestamptz,
    stored_day integer NOT NULL DEFAULT herald_day_number(now()),
    CONSTRAINT deliveries_platform_valid CHECK (platform IN ('apns', 'fcm', 'webpush', 'wns')),
    CONSTRAINT deliveries_environment_valid CHECK (environment IN ('production', 'sandbox')),
    CONSTRAINT deliveries_kind_valid CHECK (kind IN ('alert', 'background', 'withdraw')),
    CONSTRAINT deliveries_priority_valid CHECK (priority BETWEEN 1 AND 10),
    CONSTRAINT deliveries_state_valid CHECK (state IN ('queued', 'leased', 'sent', 'failed', 'dead_token', 'expired')),
    CONSTRAINT deliveries_lease_consistent CHECK ((state = 'leased') = (leased_until IS NOT NULL)),
    CONSTRAINT deliveries_attempts_valid CHECK (attempts >= 0),
    CONSTRAINT deliveries_headers_object CHECK (jsonb_typeof(headers) = 'object')
) PARTITION BY RANGE (stored_day);

-- The idempotency keys: one per stored event, across every partition.
CREATE TABLE event_keys (
    source text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    seq bigint NOT NULL DEFAULT herald_next_event_seq(),
    body_hash text NOT NULL,
    accepted_at timestamptz NOT NULL,
    CONSTRAINT event_keys_pkey PRIMARY KEY (source, id)
);

-- Trimming keys by their event's day.
CREATE INDEX event_keys_seq ON event_keys (seq);

-- Rows stored before this migration: one partition per table ending today, created only when there are rows.
DO $$
DECLARE
    today integer := herald_day_number(now());
    suffix text := to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD');
BEGIN
    IF EXISTS (SELECT 1 FROM events_unpartitioned) THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF events FOR VALUES FROM (MINVALUE) TO (%s)',
                       'events_before_' || suffix, today::bigint << 44);
        EXECUTE format('CREATE TABLE %I PARTITION OF decisions FOR VALUES FROM (MINVALUE) TO (%s)',
                       'decisions_before_' || suffix, today::bigint << 44);
    END IF;
    IF EXISTS (SELECT 1 FROM digests_unpartitioned) THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF digests FOR VALUES FROM (MINVALUE) TO (%s)',
                       'digests_before_' || suffix, today);
    END IF;
    IF EXISTS (SELECT 1 FROM deliveries_unpartitioned) THEN
        EXECUTE format('CREATE TABLE %I PARTITION OF deliveries FOR VALUES FROM (MINVALUE) TO (%s)',
                       'deliveries_before_' || suffix, today);
    END IF;
END;
$$;

INSERT INTO event_keys (source, id, seq, body_hash, accepted_at)
SELECT source, id, seq, body_hash, accepted_at FROM events_unpartitioned;
INSERT INTO events (seq, source, id, category_id, body_hash, document, state, accepted_at, decided_at, fanout_after,
                    recipients_decided)
SELECT seq, source, id, category_id, body_hash, document, state, accepted_at, decided_at, fanout_after,
       recipients_decided
FROM events_unpartitioned;
INSERT INTO decisions (event_seq, user_id, outcome, detail, deliver_at, notification_id, collapse_id, badge,
                       delivery_ids, item_id, thread_id, counts_unread, decided_at, read_at, feed_seq)
SELECT event_seq, user_id, outcome, detail, deliver_at, notification_id, collapse_id, badge, delivery_ids, item_id,
       thread_id, counts_unread, decided_at, read_at, feed_seq
FROM decisions_unpartitioned;
INSERT INTO digests (notification_id, user_id, collapse_key, category_id, outcome, detail, deliver_at, event_count,
                     delivery_ids, decided_at, stored_day)
SELECT notification_id, user_id, collapse_key, category_id, outcome, detail, deliver_at, event_count, delivery_ids,
       decided_at, herald_day_number(now()) - 1
FROM digests_unpartitioned;
INSERT INTO deliveries (id, notification_id, event_source, event_id, user_id, installation_id, platform, environment,
                        token, kind, headers, body, collapse_id, coalesce_key, priority, created_at, available_at,
                        expires_at, state, leased_until, lease_id, attempts, finished_at, detail, relayed_at,
                        stored_day)
SELECT id, notification_id, event_source, event_id, user_id, installation_id, platform, environment, token, kind,
       headers, body, collapse_id, coalesce_key, priority, created_at, available_at, expires_at, state, leased_until,
       lease_id, attempts, finished_at, detail, relayed_at, herald_day_number(now()) - 1
FROM deliveries_unpartitioned;

-- The last feed position given to each user, kept apart from the decisions that retention drops, so that a user's
-- positions (the cursors apps hold) never start over.
CREATE TABLE feed_positions (
    user_id text COLLATE "C" NOT NULL,
    position bigint NOT NULL,
    CONSTRAINT feed_positions_pkey PRIMARY KEY (user_id),
    CONSTRAINT feed_positions_positive CHECK (position >= 1)
);
INSERT INTO feed_positions (user_id, position)
SELECT user_id, max(feed_seq) FROM decisions_unpartitioned WHERE feed_seq IS NOT NULL GROUP BY user_id;

-- The campaign link and the decisions' key pointed at the old events table; both go with it (a partition drop
-- removes an event and its decisions together, which is what the cascade used to guarantee).
DROP TABLE decisions_unpartitioned, events_unpartitioned, digests_unpartitioned, deliveries_unpartitioned CASCADE;

ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (seq);
CREATE INDEX events_pending ON events (seq) WHERE state = 'pending';

ALTER TABLE decisions ADD CONSTRAINT decisions_pkey PRIMARY KEY (event_seq, user_id);
CREATE INDEX decisions_unread ON decisions (user_id, item_id) WHERE read_at IS NULL AND notification_id IS NOT NULL;
-- No longer unique across the table (a partitioned unique index needs the partition key); the user's row lock
-- every writer of the user's decisions takes is what keeps positions distinct.
CREATE INDEX decisions_feed ON decisions (user_id, feed_seq) INCLUDE (read_at) WHERE feed_seq IS NOT NULL;
CREATE INDEX decisions_notification ON decisions (user_id, notification_id) WHERE notification_id IS NOT NULL;

ALTER TABLE digests ADD CONSTRAINT digests_pkey PRIMARY KEY (notification_id, stored_day);
CREATE INDEX digests_user ON digests (user_id, decided_at);

-- Ids are derived from (notification, device, kind); the key adds the day only because partitioning demands it.
ALTER TABLE deliveries ADD CONSTRAINT deliveries_pkey PRIMARY KEY (id, stored_day);
CREATE INDEX deliveries_claim ON deliveries (available_at) WHERE state = 'queued';
CREATE INDEX deliveries_claim_platform ON deliveries (platform, available_at) WHERE state = 'queued';
CREATE INDEX deliveries_leased ON deliveries (leased_until) WHERE state = 'leased';
-- Acks and relays find leased rows by id in every partition: this keeps each probe to the few live rows.
CREATE INDEX deliveries_leased_id ON deliveries (id) WHERE state = 'leased';
-- At most one queued row per coalesce key and day; writers of a user's pushes hold the user's row lock, and the
-- replace-or-insert statements look across days, so a key never has two queued rows.
CREATE UNIQUE INDEX deliveries_coalesce_queued ON deliveries (coalesce_key, stored_day) WHERE state = 'queued';
CREATE INDEX deliveries_installation ON deliveries (installation_id) WHERE state = 'queued';
CREATE INDEX deliveries_relayed ON deliveries (relayed_at) WHERE relayed_at IS NOT NULL;

-- Creates the day partitions of every partitioned table from `first_day` to `last_day` (UTC day numbers) that do
-- not exist yet, and returns their names. Days before a `_before_` partition's end are skipped.
CREATE FUNCTION herald_partitions_ensure(first_day integer, last_day integer) RETURNS SETOF text
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
            RETURN NEXT partition_name;
        END LOOP;
    END LOOP;
END;
$$;

-- Every partition of the four tables, with the first UTC day after its rows (its end) and whether it holds rows
-- from before partitioning.
CREATE FUNCTION herald_partitions() RETURNS TABLE (parent text, name text, end_day integer, legacy boolean)
    LANGUAGE sql STABLE
AS $$
    SELECT p.relname::text, c.relname::text,
           (to_date(right(c.relname, 8), 'YYYYMMDD') - date '1970-01-01')
               + CASE WHEN c.relname ~ '_before_[0-9]{8}$' THEN 0 ELSE 1 END,
           c.relname ~ '_before_[0-9]{8}$'
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    JOIN pg_class p ON p.oid = i.inhparent
    WHERE p.relname IN ('events', 'decisions', 'digests', 'deliveries')
      AND p.relnamespace = current_schema()::regnamespace
      AND c.relname ~ '_[0-9]{8}$'
$$;

-- The partitions wholly older than `keep_from_day` that can go now: not an event still undecided, not a delivery
-- still queued or leased (those partitions wait for a later run), and decisions only with their events.
CREATE FUNCTION herald_partitions_expired(keep_from_day integer) RETURNS TABLE (parent text, name text)
    LANGUAGE plpgsql STABLE
AS $$
DECLARE
    candidate record;
    events_partition text;
    live boolean;
BEGIN
    FOR candidate IN
        SELECT p.parent AS table_name, p.name AS partition_name FROM herald_partitions() p
        WHERE p.end_day <= keep_from_day
        ORDER BY p.end_day, array_position(ARRAY['decisions', 'events', 'digests', 'deliveries'], p.parent)
    LOOP
        live := false;
        IF candidate.table_name = 'deliveries' THEN
            EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE state IN (''queued'', ''leased''))',
                           candidate.partition_name)
                INTO live;
        ELSIF candidate.table_name IN ('events', 'decisions') THEN
            events_partition := 'events' || substr(candidate.partition_name, length(candidate.table_name) + 1);
            IF to_regclass(events_partition) IS NOT NULL THEN
                EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE state = ''pending'')', events_partition)
                    INTO live;
            END IF;
        END IF;
        CONTINUE WHEN live;
        parent := candidate.table_name;
        name := candidate.partition_name;
        RETURN NEXT;
    END LOOP;
END;
$$;

-- Drops one partition that herald_partitions_expired returned (a name that is not a partition of the four tables
-- is refused), waiting at most five seconds for the lock so that a long transaction delays retention rather than
-- the pipeline.
CREATE FUNCTION herald_partition_drop(partition_name text) RETURNS void
    LANGUAGE plpgsql
    SET lock_timeout = '5s'
AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM herald_partitions() p WHERE p.name = partition_name) THEN
        RAISE EXCEPTION 'not a Herald partition';
    END IF;
    EXECUTE format('DROP TABLE %I', partition_name);
END;
$$;
