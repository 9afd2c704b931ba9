-- Notification categories. The category document (every field a product manager edits, templates included) is
-- validated by the service before it is stored; the columns pulled out of it are the ones queries filter on.
-- `version` counts every change and is the resource's ETag: writers update `WHERE id = $1 AND version = $2`, so a
-- concurrent edit makes the second writer fail instead of silently losing the first one's change.
CREATE TABLE categories (
    id text PRIMARY KEY,
    version integer NOT NULL DEFAULT 1,
    document jsonb NOT NULL,
    archived_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT categories_id_format CHECK (id ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
    CONSTRAINT categories_version_positive CHECK (version >= 1),
    CONSTRAINT categories_document_object CHECK (jsonb_typeof(document) = 'object'),
    CONSTRAINT categories_document_id CHECK (document ->> 'id' = id),
    CONSTRAINT categories_archived_agrees CHECK (
        COALESCE((document ->> 'archived')::boolean, false) = (archived_at IS NOT NULL)
    )
);

-- Every change to a category, with who made it and the document before and after. The key's name is copied at
-- write time so the history still names the writer after the key is revoked or renamed.
CREATE TABLE category_changes (
    category_id text NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    version integer NOT NULL,
    action text NOT NULL,
    actor_key_id text,
    actor_name text,
    changed_at timestamptz NOT NULL DEFAULT now(),
    before jsonb,
    after jsonb,
    CONSTRAINT category_changes_pkey PRIMARY KEY (category_id, version),
    CONSTRAINT category_changes_action_valid CHECK (
        action IN ('create', 'replace', 'patch', 'archive', 'restore', 'template_put', 'template_delete')
    ),
    CONSTRAINT category_changes_before_after CHECK ((action = 'create') = (before IS NULL) AND after IS NOT NULL)
);
