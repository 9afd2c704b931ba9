-- Retention no longer lowers the unread counts inside the partition's drop. The count's rule (it never goes below
-- zero) belongs to the service, which applies it to reads too: the service now reads, a chunk of users at a time,
-- how many of each user's unread notifications a day of decisions takes with it (`herald_partition_unread`),
-- lowers the counts and writes them, and then drops the partition, all in one transaction.

DROP FUNCTION herald_partition_drop(text, timestamptz);

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

-- The next `max_users` users, in id order after `after_user`, with an unread notification in the decisions
-- partition `partition_name`: their current unread count (NULL without a counters row) and how many of those
-- notifications are theirs (`gone`). A notification decided more than `allowance_seconds` before the user was
-- created belongs to an earlier user of the same id; a user that no longer exists has none. The users' rows are
-- locked first, in id order as every writer takes them, so that the counts are read after every write to them
-- has ended and stay as read until the transaction ends.
CREATE FUNCTION herald_partition_unread(
    partition_name text, after_user text, max_users integer, allowance_seconds double precision
) RETURNS TABLE (user_id text, unread integer, gone integer)
    LANGUAGE plpgsql
AS $$
DECLARE
    ids text[];
BEGIN
    IF NOT EXISTS (SELECT 1 FROM herald_partitions() p WHERE p.name = partition_name AND p.parent = 'decisions') THEN
        RAISE EXCEPTION 'not a Herald decisions partition';
    END IF;
    EXECUTE format(
        'SELECT array_agg(user_id ORDER BY user_id) FROM (
             SELECT DISTINCT d.user_id FROM %I AS d WHERE d.counts_unread AND d.read_at IS NULL AND d.user_id > $1
             ORDER BY d.user_id LIMIT $2) AS chunk', partition_name)
        INTO ids USING after_user, max_users;
    PERFORM count(*) FROM (SELECT 1 FROM users WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE) AS locked;
    RETURN QUERY EXECUTE format(
        'SELECT ids.user_id, c.unread,
                (SELECT count(*)::integer FROM %I AS d
                 WHERE d.user_id = ids.user_id AND d.counts_unread AND d.read_at IS NULL
                   AND d.decided_at >= u.created_at - make_interval(secs => $2))
         FROM unnest($1::text[]) AS ids(user_id)
         LEFT JOIN users AS u ON u.id = ids.user_id
         LEFT JOIN recipient_counters AS c ON c.user_id = ids.user_id
         ORDER BY ids.user_id', partition_name)
        USING ids, allowance_seconds;
END;
$$;
