-- A digest records the notifications its burst knows as its own (`BurstMembership.known`: the events decided at the
-- instant it began, by notification id). Of the notifications decided at the instant the burst began, only these are
-- its own: the batch that began it may also have decided, at that instant, the event that caught the burst before it
-- up. An open of the digest reads the burst's notifications by the same rule as a read while the burst is open.
--
-- NULL for digests stored before this column: every notification decided at that instant then counts, as before.
ALTER TABLE digests ADD COLUMN burst_known_ids text[];
