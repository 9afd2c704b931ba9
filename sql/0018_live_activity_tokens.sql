-- The push tokens of iOS Live Activities, per installation and the app's own activity id. A token belongs to one
-- activity on one device; it goes with its device (a signed-out or deleted installation takes its tokens along).
CREATE TABLE live_activity_tokens (
    installation_id text COLLATE "C" NOT NULL,
    activity_id text COLLATE "C" NOT NULL,
    token text COLLATE "C" NOT NULL,
    registered_at timestamptz NOT NULL,
    CONSTRAINT live_activity_tokens_pkey PRIMARY KEY (installation_id, activity_id),
    CONSTRAINT live_activity_tokens_device_fkey FOREIGN KEY (installation_id)
        REFERENCES devices (installation_id) ON DELETE CASCADE,
    -- Character classes plus length checks, as 0007 made every identifier check.
    CONSTRAINT live_activity_tokens_activity_id_format
        CHECK (activity_id ~ '^[A-Za-z0-9._:@|-]+$' AND octet_length(activity_id) <= 128),
    CONSTRAINT live_activity_tokens_token_format
        CHECK (token ~ '^[0-9a-f]+$' AND octet_length(token) BETWEEN 32 AND 512)
);
