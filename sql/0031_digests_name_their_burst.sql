-- A digest names the burst it summarises, so that opening it (a receipt naming the digest's notification id, the
-- `nid` of its pushes) reads the burst's notifications. Its notifications are the first `event_count` decisions of
-- its user with its category and collapse id (the one its pushes carry) decided from the instant its burst's first
-- event was decided, in the order they were decided.
--
-- Digests stored before this name no burst: opening one is stored as a receipt of the digest and reads nothing.
ALTER TABLE digests ADD COLUMN collapse_id text, ADD COLUMN burst_started_at timestamptz;
