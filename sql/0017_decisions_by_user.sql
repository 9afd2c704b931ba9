-- "Why didn't Ana get this?": a user's latest decisions, newest first, a page at a time.
--
-- No index led from a user to all of their decisions: the existing ones hold only unread or notified rows, and a
-- suppressed decision makes no notification. This one is (user_id, event_seq) in every day partition. Partitions
-- are ranges of event_seq, so `WHERE user_id = $1 AND event_seq < $2 ORDER BY event_seq DESC LIMIT $3` walks the
-- newest partition's index backwards and stops at the page: older days are never opened once it is full.
CREATE INDEX decisions_user_recent ON decisions (user_id, event_seq);
