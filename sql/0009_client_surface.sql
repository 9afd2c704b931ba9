-- The client surface: the notification feed by cursor and the receipts the app reports.
--
-- Feed positions: each notification gets the next position of its user's feed, allocated while the pipeline holds
-- the user's row lock (the same lock every writer of a user's decisions takes) and committed with the decision.
-- Positions therefore appear in commit order per user: a reader that has seen position N never later finds a
-- position below N appear, so paging by position skips nothing and repeats nothing under concurrent inserts.
ALTER TABLE decisions ADD COLUMN feed_seq bigint;

-- Notifications decided before this migration get positions in the order they were decided.
UPDATE decisions AS d SET feed_seq = numbered.position
FROM (
    SELECT event_seq, user_id,
           row_number() OVER (PARTITION BY user_id ORDER BY decided_at, event_seq) AS position
    FROM decisions WHERE notification_id IS NOT NULL
) AS numbered
WHERE d.event_seq = numbered.event_seq AND d.user_id = numbered.user_id;

ALTER TABLE decisions ADD CONSTRAINT decisions_feed_seq_valid
    CHECK (feed_seq IS NULL OR (feed_seq >= 1 AND notification_id IS NOT NULL));

-- The feed: a user's notifications after a position, in order (and the pipeline's probe for the latest position).
-- Unique, so a writer that ever skipped the user lock would fail loudly instead of serving two items at one cursor.
CREATE UNIQUE INDEX decisions_feed ON decisions (user_id, feed_seq) INCLUDE (read_at) WHERE feed_seq IS NOT NULL;

-- Receipts name a notification by id; this finds it within its user's rows.
CREATE INDEX decisions_notification ON decisions (user_id, notification_id) WHERE notification_id IS NOT NULL;

-- What the app reported per notification and device: displayed, opened or dismissed, once each (a retried batch
-- changes nothing). The category is copied from the notification so per-category figures need no join.
CREATE TABLE receipts (
    user_id text COLLATE "C" NOT NULL,
    notification_id text COLLATE "C" NOT NULL,
    device text COLLATE "C" NOT NULL,
    event text NOT NULL,
    category_id text NOT NULL,
    at timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    CONSTRAINT receipts_pkey PRIMARY KEY (user_id, notification_id, device, event),
    CONSTRAINT receipts_event_valid CHECK (event IN ('displayed', 'opened', 'dismissed'))
);

-- Per-category displayed/opened/dismissed counts for the category stats.
CREATE INDEX receipts_category ON receipts (category_id, event);

-- The learned interruption budget's input: per user and category, how many notifications in a row the user
-- dismissed without opening (an open resets it). The pipeline loads the rows of its batch's users.
CREATE TABLE dismissal_streaks (
    user_id text COLLATE "C" NOT NULL,
    category_id text NOT NULL,
    streak integer NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT dismissal_streaks_pkey PRIMARY KEY (user_id, category_id),
    CONSTRAINT dismissal_streaks_not_negative CHECK (streak >= 0)
);
