-- Campaigns: a category sent at one local wall-clock time on one date to an audience, in waves by time zone.
-- A wave is a timer row: the runner claims due waves with FOR UPDATE SKIP LOCKED, pages the wave's recipients by
-- keyset (zone by zone, user id order) from the cursor stored on the wave, and per batch, in one transaction,
-- records the recipients (unique per campaign and user), stores one inbox event naming them and moves the cursor.

CREATE TABLE campaigns (
    id text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    -- Who: everyone, the subscribers of a topic, or an explicit list of users.
    audience_kind text NOT NULL,
    audience_topic text COLLATE "C",
    audience_users text[] COLLATE "C",
    local_date date NOT NULL,
    local_time text NOT NULL,
    data jsonb NOT NULL,
    late text NOT NULL,
    default_time_zone text NOT NULL,
    unknown_zones text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    canceled_at timestamptz,
    CONSTRAINT campaigns_pkey PRIMARY KEY (id),
    CONSTRAINT campaigns_id_format CHECK (id ~ '^[A-Za-z0-9._-]{1,64}$'),
    CONSTRAINT campaigns_audience_valid CHECK (
        (audience_kind = 'all' AND audience_topic IS NULL AND audience_users IS NULL)
        OR (audience_kind = 'topic' AND audience_topic IS NOT NULL AND audience_users IS NULL)
        OR (audience_kind = 'users' AND audience_topic IS NULL AND audience_users IS NOT NULL)
    ),
    CONSTRAINT campaigns_local_time_format CHECK (local_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    CONSTRAINT campaigns_late_valid CHECK (late IN ('skip', 'send_now')),
    CONSTRAINT campaigns_data_object CHECK (jsonb_typeof(data) = 'object')
);

CREATE TABLE campaign_waves (
    campaign_id text COLLATE "C" NOT NULL,
    number integer NOT NULL,
    due_at timestamptz NOT NULL,
    -- The zones sent in this wave, bytewise sorted; the wave that holds the default zone also sends users
    -- without a zone (one more segment after the zones).
    zones text[] COLLATE "C" NOT NULL,
    sends_zoneless boolean NOT NULL,
    planned integer NOT NULL,
    state text NOT NULL,
    -- The cursor: the segment (index into zones, then the zoneless segment) and the last user id taken in it.
    segment integer NOT NULL DEFAULT 0,
    after_user text COLLATE "C" NOT NULL DEFAULT '',
    batches integer NOT NULL DEFAULT 0,
    selected integer NOT NULL DEFAULT 0,
    enqueued integer NOT NULL DEFAULT 0,
    -- Rate smoothing: the earliest time the next batch may run.
    next_batch_at timestamptz NOT NULL,
    started_at timestamptz,
    finished_at timestamptz,
    CONSTRAINT campaign_waves_pkey PRIMARY KEY (campaign_id, number),
    CONSTRAINT campaign_waves_campaign_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE,
    CONSTRAINT campaign_waves_state_valid CHECK (state IN ('pending', 'running', 'done', 'skipped', 'canceled')),
    CONSTRAINT campaign_waves_counts_valid CHECK (planned >= 0 AND batches >= 0 AND selected >= 0 AND enqueued >= 0)
);

-- The runner's claim: waves still to run, by when their next batch may go.
CREATE INDEX campaign_waves_due ON campaign_waves (next_batch_at) WHERE state IN ('pending', 'running');

-- Who got the campaign: the key that makes a second send to the same user impossible, whatever the zone moves,
-- retries or concurrent runners.
CREATE TABLE campaign_recipients (
    campaign_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    wave integer NOT NULL,
    CONSTRAINT campaign_recipients_pkey PRIMARY KEY (campaign_id, user_id),
    CONSTRAINT campaign_recipients_campaign_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns (id)
        ON DELETE CASCADE
);

-- The inbox events of each wave, so progress joins the decisions of a campaign's events only.
CREATE TABLE campaign_events (
    campaign_id text COLLATE "C" NOT NULL,
    wave integer NOT NULL,
    event_seq bigint NOT NULL,
    CONSTRAINT campaign_events_pkey PRIMARY KEY (campaign_id, wave, event_seq),
    CONSTRAINT campaign_events_campaign_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE,
    CONSTRAINT campaign_events_event_fkey FOREIGN KEY (event_seq) REFERENCES events (seq) ON DELETE CASCADE
);

CREATE INDEX campaign_events_event ON campaign_events (event_seq);

-- A wave pages the users of one zone in id order: (time_zone, id) serves both the zone's equality and the order,
-- and `time_zone IS NULL` for the users without a zone.
CREATE INDEX users_time_zone_id ON users (time_zone, id);
