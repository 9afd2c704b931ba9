-- The three rows every delivered event updates for its recipient (the unread count, the user-wide rate bucket and
-- the feed position) are written with room left on their pages, so that an update can put the new version on the
-- same page: a HOT update, which adds no index entry and leaves its dead version for the next visit to prune.
--
-- With the pages filled to the brim, 25 % of those updates were HOT in a full benchmark run (unread counts
-- 32,311 of 130,000, feed positions 33,692 of 130,000, rate buckets 33,177 of 126,424): the other three in four
-- went to another page, inserted a primary key entry and left a dead row for vacuum. In `herald bench --quick`, two runs
-- each way with statement tracking: 5–15 % HOT before and 73–77 % after, and the three upserts of the pipeline
-- phase took 122–174 ms of execution before and 90 ms after (10 batches of 500 events). The rows are small and one
-- per user (or per user and scope), so 30 % more room costs little. Pages written before this keep their fill until
-- they are rewritten; vacuum frees room on them as before.

ALTER TABLE unread_counts SET (fillfactor = 70);
ALTER TABLE rate_buckets SET (fillfactor = 70);
ALTER TABLE feed_positions SET (fillfactor = 70);
