-- The event pipeline: the inbox of accepted events, one decision per recipient, digests, the delivery queue
-- (a transactional outbox written in the same transaction as the decision), and the per-recipient state the
-- decision engine carries from one event to the next (unread counts, rate buckets, collapse groups, silent-push
-- budgets, collapse-window timers).
--
-- Per-recipient state has no foreign key to `users`: a worker serializes on the user's row (SELECT … FOR NO KEY
-- UPDATE) instead, and unknown users simply have no state. Identifiers compare bytewise (COLLATE "C").

-- Accepted events, idempotent on (source, id). `body_hash` is the SHA-256 of the event's canonical JSON, so a
-- retry of the same event is told apart from a different event reusing an id.
CREATE TABLE events (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    source text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    body_hash text NOT NULL,
    document jsonb NOT NULL,
    state text NOT NULL DEFAULT 'pending',
    accepted_at timestamptz NOT NULL,
    decided_at timestamptz,
    -- A topic's subscribers are decided in pages: the last subscriber decided so far.
    fanout_after text COLLATE "C",
    recipients_decided integer NOT NULL DEFAULT 0,
    CONSTRAINT events_pkey PRIMARY KEY (seq),
    CONSTRAINT events_source_id_unique UNIQUE (source, id),
    CONSTRAINT events_state_valid CHECK (state IN ('pending', 'decided')),
    CONSTRAINT events_decided_consistent CHECK ((state = 'decided') = (decided_at IS NOT NULL)),
    CONSTRAINT events_body_hash_format CHECK (body_hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT events_document_object CHECK (jsonb_typeof(document) = 'object'),
    CONSTRAINT events_recipients_decided_valid CHECK (recipients_decided >= 0)
);

-- The workers' claim: undecided events in acceptance order (partial, so decided history costs the claim nothing).
CREATE INDEX events_pending ON events (seq) WHERE state = 'pending';

-- One decision per recipient of an event, with its machine-readable outcome. It doubles as the notification the
-- user may later read: `read_at` is set once, which is what makes a second read change nothing.
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
    -- Whether this notification raised the unread count (and so lowers it when read).
    counts_unread boolean NOT NULL DEFAULT false,
    decided_at timestamptz NOT NULL,
    read_at timestamptz,
    CONSTRAINT decisions_pkey PRIMARY KEY (event_seq, user_id),
    CONSTRAINT decisions_event_fkey FOREIGN KEY (event_seq) REFERENCES events (seq) ON DELETE CASCADE,
    CONSTRAINT decisions_outcome_valid CHECK (outcome IN (
        'delivered', 'deferred.quiet_hours', 'silenced.quiet_hours', 'dropped.quiet_hours', 'suppressed.preference',
        'suppressed.muted', 'suppressed.expired', 'suppressed.unknown_user', 'suppressed.actor', 'rate_limited',
        'collapsed', 'digested.preference', 'no_devices', 'rejected.unknown_category', 'rejected.archived_category',
        'read'
    )),
    CONSTRAINT decisions_unread_needs_notification CHECK (NOT counts_unread OR notification_id IS NOT NULL)
);

-- A read looks up the user's unread notifications by item (and by thread, within the same user's rows).
CREATE INDEX decisions_unread ON decisions (user_id, item_id) WHERE read_at IS NULL AND notification_id IS NOT NULL;

-- Digests: what a collapse window produced when it closed, one row per digest notification.
CREATE TABLE digests (
    notification_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    collapse_key text NOT NULL,
    category_id text NOT NULL,
    outcome text NOT NULL,
    detail text,
    deliver_at timestamptz,
    event_count integer,
    delivery_ids text[] NOT NULL DEFAULT '{}',
    decided_at timestamptz NOT NULL,
    CONSTRAINT digests_pkey PRIMARY KEY (notification_id),
    CONSTRAINT digests_event_count_valid CHECK (event_count >= 0)
);

CREATE INDEX digests_user ON digests (user_id, decided_at);

-- The delivery queue: one ready-to-send push per row. Consumers claim with FOR UPDATE SKIP LOCKED (see the
-- README); a lease that runs out puts the row back. Ids are derived from (notification, device, kind), so the
-- same push can never be queued twice.
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
    -- An unsent queued row with the same key is replaced instead of adding a row (coalesced background pushes).
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
    CONSTRAINT deliveries_pkey PRIMARY KEY (id),
    CONSTRAINT deliveries_platform_valid CHECK (platform IN ('apns', 'fcm', 'webpush', 'wns')),
    CONSTRAINT deliveries_environment_valid CHECK (environment IN ('production', 'sandbox')),
    CONSTRAINT deliveries_kind_valid CHECK (kind IN ('alert', 'background', 'withdraw')),
    CONSTRAINT deliveries_priority_valid CHECK (priority BETWEEN 1 AND 10),
    CONSTRAINT deliveries_state_valid CHECK (state IN ('queued', 'leased', 'sent', 'failed', 'dead_token', 'expired')),
    CONSTRAINT deliveries_lease_consistent CHECK ((state = 'leased') = (leased_until IS NOT NULL)),
    CONSTRAINT deliveries_attempts_valid CHECK (attempts >= 0),
    CONSTRAINT deliveries_headers_object CHECK (jsonb_typeof(headers) = 'object')
);

-- The claim: queued rows that are due, oldest first, overall and per platform.
CREATE INDEX deliveries_claim ON deliveries (available_at) WHERE state = 'queued';
CREATE INDEX deliveries_claim_platform ON deliveries (platform, available_at) WHERE state = 'queued';
-- Leases that ran out go back to the queue.
CREATE INDEX deliveries_leased ON deliveries (leased_until) WHERE state = 'leased';
-- At most one queued row per coalesce key; a newer push with the key replaces it.
CREATE UNIQUE INDEX deliveries_coalesce_queued ON deliveries (coalesce_key) WHERE state = 'queued';
-- A user's pushes (decision lookups, dead-token cleanup by device).
CREATE INDEX deliveries_installation ON deliveries (installation_id) WHERE state = 'queued';

-- The absolute unread count per user, sent as the badge.
CREATE TABLE unread_counts (
    user_id text COLLATE "C" NOT NULL,
    unread integer NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT unread_counts_pkey PRIMARY KEY (user_id),
    CONSTRAINT unread_counts_not_negative CHECK (unread >= 0)
);

-- Token buckets per user per category, and per user over all categories (scope `*`).
CREATE TABLE rate_buckets (
    user_id text COLLATE "C" NOT NULL,
    scope text NOT NULL,
    capacity integer NOT NULL,
    window_seconds integer NOT NULL,
    tokens double precision NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT rate_buckets_pkey PRIMARY KEY (user_id, scope),
    CONSTRAINT rate_buckets_capacity_positive CHECK (capacity >= 1),
    CONSTRAINT rate_buckets_window_positive CHECK (window_seconds >= 1)
);

-- Open bursts per user and collapse key; an idle group has no row.
CREATE TABLE collapse_groups (
    user_id text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    state jsonb NOT NULL,
    window_ends_at timestamptz,
    updated_at timestamptz NOT NULL,
    CONSTRAINT collapse_groups_pkey PRIMARY KEY (user_id, key),
    CONSTRAINT collapse_groups_state_object CHECK (jsonb_typeof(state) = 'object')
);

-- Background-push budgets per device.
CREATE TABLE silent_budgets (
    installation_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    state jsonb NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT silent_budgets_pkey PRIMARY KEY (installation_id),
    CONSTRAINT silent_budgets_state_object CHECK (jsonb_typeof(state) = 'object')
);

CREATE INDEX silent_budgets_user ON silent_budgets (user_id);

-- Collapse-window close timers: one per open group, fired by the workers through the same path as events.
CREATE TABLE timers (
    user_id text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    due_at timestamptz NOT NULL,
    CONSTRAINT timers_pkey PRIMARY KEY (user_id, key)
);

CREATE INDEX timers_due ON timers (due_at);
