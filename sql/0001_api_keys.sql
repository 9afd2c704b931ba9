-- API keys: only the SHA-256 of each secret is stored; the secret is shown once, at creation.
CREATE TABLE api_keys (
    id text PRIMARY KEY,
    name text NOT NULL,
    key_hash text NOT NULL,
    scopes text[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    CONSTRAINT api_keys_id_format CHECK (id ~ '^[a-z0-9_-]{1,64}$'),
    CONSTRAINT api_keys_name_length CHECK (char_length(name) BETWEEN 1 AND 200),
    CONSTRAINT api_keys_hash_format CHECK (key_hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT api_keys_scopes_valid CHECK (
        cardinality(scopes) >= 1
        AND scopes <@ ARRAY['events:write', 'categories:write', 'users:write', 'campaigns:write',
                            'deliveries:consume', 'admin']::text[]
    )
);

CREATE UNIQUE INDEX api_keys_key_hash_unique ON api_keys (key_hash);
