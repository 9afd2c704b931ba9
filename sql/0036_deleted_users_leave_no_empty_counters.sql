-- A deleted user leaves a counters row only when it holds a feed position to keep.
--
-- Since 0035 a user's deletion clears the unread count and the user-wide bucket of its `recipient_counters` row
-- and keeps the row for its feed position: positions never start over, so a user created again under the same
-- id never hands out a position a client may already have passed. A user that never had a feed entry (position 0)
-- has nothing to keep, and its row of zeros stayed behind for good. It is deleted now, and the rows such deletions
-- left behind go too.

CREATE OR REPLACE FUNCTION users_drop_pending_state() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM timers WHERE user_id = OLD.id;
    DELETE FROM collapse_groups WHERE user_id = OLD.id;
    DELETE FROM rate_buckets WHERE user_id = OLD.id;
    DELETE FROM recipient_counters WHERE user_id = OLD.id AND feed_position = 0;
    UPDATE recipient_counters
    SET unread = 0, unread_updated_at = NULL, bucket_capacity = NULL, bucket_window_seconds = NULL,
        bucket_tokens = NULL, bucket_updated_at = NULL
    WHERE user_id = OLD.id;
    DELETE FROM silent_budgets WHERE user_id = OLD.id;
    RETURN NULL;
END;
$$;

DELETE FROM recipient_counters c
WHERE c.feed_position = 0 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id);
