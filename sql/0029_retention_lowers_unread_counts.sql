-- A day of decisions dropped by retention takes its unread notifications with it, so it lowers their users' unread
-- counts by them. Before, a count kept a notification nobody could read any more (a read finds only stored rows),
-- and the badge of every user with an unread notification older than the retention period never reached 0.
--
-- The count is written only under the user's row lock, by the workers and by reads; the drop takes the locks of the
-- users it lowers, in id order as every writer does, before it lowers their counts and drops the day. `at` is the
-- service's clock, which stamps the counts it changes.

DROP FUNCTION herald_partition_drop(text);

CREATE FUNCTION herald_partition_drop(partition_name text, at timestamptz) RETURNS void
    LANGUAGE plpgsql
    SET lock_timeout = '5s'
AS $$
DECLARE
    parent_table text;
BEGIN
    SELECT p.parent INTO parent_table FROM herald_partitions() p WHERE p.name = partition_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'not a Herald partition';
    END IF;
    IF parent_table = 'decisions' THEN
        EXECUTE format(
            'SELECT count(*) FROM (SELECT 1 FROM users WHERE id IN (SELECT user_id FROM %I
                 WHERE counts_unread AND read_at IS NULL) ORDER BY id FOR NO KEY UPDATE) AS locked',
            partition_name);
        -- Only the notifications of the user who has the id now: an id deleted and created again before deletions
        -- retired their notifications may still hold the first person's, decided before the second was created
        -- (the minute allows for the instances' clocks, which stamp both).
        EXECUTE format(
            'UPDATE unread_counts AS c SET unread = greatest(0, c.unread - day.unread), updated_at = $1
             FROM (SELECT d.user_id, count(*) AS unread FROM %I AS d JOIN users AS u ON u.id = d.user_id
                   WHERE d.counts_unread AND d.read_at IS NULL AND d.decided_at >= u.created_at - interval ''1 minute''
                   GROUP BY d.user_id) AS day
             WHERE c.user_id = day.user_id',
            partition_name) USING at;
    END IF;
    EXECUTE format('DROP TABLE %I', partition_name);
END;
$$;
