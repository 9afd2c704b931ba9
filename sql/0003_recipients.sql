-- Recipients: users, their preferences, mutes, topic subscriptions and devices, plus a record of every device
-- deactivation. Identifiers are opaque ASCII and compared bytewise (COLLATE "C"), which keeps the btree indexes
-- the decision pipeline pages through cheap and their order independent of the server's locale. Their format checks
-- use an unbounded character class plus a length check: a bounded repetition such as {1,128} made PostgreSQL's
-- regex engine cost about 25 µs per row, five times a whole bulk-import insert.

CREATE TABLE users (
    id text COLLATE "C" NOT NULL,
    locale text,
    time_zone text,
    -- Quiet hours as local minutes since midnight; the window crosses midnight when end <= start.
    quiet_start_minute smallint,
    quiet_end_minute smallint,
    -- Weekdays on which a window starts, bit 0 = Monday … bit 6 = Sunday; NULL means every day.
    quiet_days smallint,
    badge boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT users_pkey PRIMARY KEY (id),
    CONSTRAINT users_id_format CHECK (id ~ '^[A-Za-z0-9._:@|-]+$' AND octet_length(id) <= 128),
    CONSTRAINT users_locale_length CHECK (char_length(locale) BETWEEN 1 AND 128),
    CONSTRAINT users_time_zone_length CHECK (char_length(time_zone) BETWEEN 1 AND 200),
    CONSTRAINT users_quiet_hours_complete CHECK ((quiet_start_minute IS NULL) = (quiet_end_minute IS NULL)),
    CONSTRAINT users_quiet_hours_range CHECK (
        quiet_start_minute BETWEEN 0 AND 1439 AND quiet_end_minute BETWEEN 0 AND 1439
        AND quiet_start_minute <> quiet_end_minute
    ),
    CONSTRAINT users_quiet_days_valid CHECK (
        quiet_days IS NULL OR (quiet_days BETWEEN 1 AND 127 AND quiet_start_minute IS NOT NULL)
    )
);

-- A user's own choice per category; absent rows fall back to the category default.
CREATE TABLE user_preferences (
    user_id text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    setting text NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT user_preferences_pkey PRIMARY KEY (user_id, category_id),
    CONSTRAINT user_preferences_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT user_preferences_category_fkey FOREIGN KEY (category_id) REFERENCES categories (id)
        ON DELETE CASCADE,
    CONSTRAINT user_preferences_setting_valid CHECK (setting IN ('on', 'off', 'digest'))
);

-- The category a preference names, for removing a category's preferences without a sequential scan.
CREATE INDEX user_preferences_category ON user_preferences (category_id);

-- Mutes: everything, one category, or one thread, until an optional instant. One row per (user, scope, key); a
-- second mute of the same thing moves its end.
CREATE TABLE user_mutes (
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    user_id text COLLATE "C" NOT NULL,
    scope text NOT NULL,
    key text COLLATE "C",
    until timestamptz,
    created_at timestamptz NOT NULL,
    CONSTRAINT user_mutes_pkey PRIMARY KEY (id),
    CONSTRAINT user_mutes_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT user_mutes_scope_valid CHECK (scope IN ('all', 'category', 'thread')),
    CONSTRAINT user_mutes_key_matches_scope CHECK ((scope = 'all') = (key IS NULL)),
    CONSTRAINT user_mutes_key_length CHECK (char_length(key) BETWEEN 1 AND 200)
);

-- One mute per thing muted; also the index the pipeline's batch load by user id array uses.
CREATE UNIQUE INDEX user_mutes_user_scope_key ON user_mutes (user_id, scope, COALESCE(key, ''));

-- Who follows a topic such as `conversation:42`. Subscribers are read in user id order from the primary key
-- (keyset paging), so a topic with millions of users streams in pages and never loads at once.
CREATE TABLE topic_subscriptions (
    topic text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT topic_subscriptions_pkey PRIMARY KEY (topic, user_id),
    CONSTRAINT topic_subscriptions_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT topic_subscriptions_topic_format CHECK (topic ~ '^[A-Za-z0-9._:@|-]+$' AND octet_length(topic) <= 200)
);

-- A user's subscriptions, for deleting a user without scanning every topic.
CREATE INDEX topic_subscriptions_user ON topic_subscriptions (user_id);

-- App installations. A push token has one owner: the same (platform, token) never appears on two rows.
CREATE TABLE devices (
    installation_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    platform text NOT NULL,
    -- APNs hex token, FCM registration token, Web Push endpoint URL or WNS channel URI.
    token text COLLATE "C" NOT NULL,
    web_push_p256dh text,
    web_push_auth text,
    environment text NOT NULL DEFAULT 'production',
    app_id text NOT NULL,
    locale text,
    app_version text,
    app_builds_notifications boolean NOT NULL DEFAULT false,
    active boolean NOT NULL DEFAULT true,
    -- The last registration (PUT or import): the re-registration race and staleness are measured from it.
    last_registered_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    deactivated_at timestamptz,
    deactivation_reason text,
    CONSTRAINT devices_pkey PRIMARY KEY (installation_id),
    CONSTRAINT devices_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT devices_installation_id_format CHECK (
        installation_id ~ '^[A-Za-z0-9._:@|-]+$' AND octet_length(installation_id) <= 128
    ),
    CONSTRAINT devices_platform_valid CHECK (platform IN ('apns', 'fcm', 'webpush', 'wns')),
    CONSTRAINT devices_environment_valid CHECK (
        environment IN ('production', 'sandbox') AND (environment = 'production' OR platform = 'apns')
    ),
    CONSTRAINT devices_token_length CHECK (char_length(token) BETWEEN 1 AND 4096),
    CONSTRAINT devices_web_push_keys CHECK (
        (platform = 'webpush') = (web_push_p256dh IS NOT NULL AND web_push_auth IS NOT NULL)
    ),
    CONSTRAINT devices_app_id_length CHECK (char_length(app_id) BETWEEN 1 AND 255),
    CONSTRAINT devices_deactivation_consistent CHECK (active = (deactivated_at IS NULL))
);

CREATE UNIQUE INDEX devices_platform_token_unique ON devices (platform, token);
-- The devices of a batch of users (`user_id = ANY($1)`), and the cascade when a user is deleted.
CREATE INDEX devices_user ON devices (user_id);

-- Every time a device stopped receiving pushes, and why: dead-token feedback, sign-out, or its token moving to
-- another installation. The token itself is not kept, only its SHA-256.
CREATE TABLE device_deactivations (
    id bigint GENERATED ALWAYS AS IDENTITY,
    installation_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    platform text NOT NULL,
    token_sha256 text NOT NULL,
    cause text NOT NULL,
    -- The reason as reported (e.g. `Unregistered`), or Herald's own for sign-out and moves.
    reason text NOT NULL,
    -- When the push service saw the failure, for feedback; NULL otherwise.
    failed_at timestamptz,
    recorded_at timestamptz NOT NULL,
    CONSTRAINT device_deactivations_pkey PRIMARY KEY (id),
    CONSTRAINT device_deactivations_user_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE,
    CONSTRAINT device_deactivations_cause_valid CHECK (cause IN ('feedback', 'signed_out', 'token_moved')),
    CONSTRAINT device_deactivations_reason_length CHECK (char_length(reason) BETWEEN 1 AND 200)
);

CREATE INDEX device_deactivations_installation ON device_deactivations (installation_id, recorded_at);
CREATE INDEX device_deactivations_user ON device_deactivations (user_id);
