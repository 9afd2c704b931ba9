-- The events' body hash check as an unbounded character class plus a length check, as migration 0007 did for the
-- identifiers. The bounded repetition {64} cost PostgreSQL's regex engine about 20 µs for every event stored and
-- 12 µs again for every progress update of the row (both evaluate the table's checks), more than the rest of the
-- update. The accepted hashes are the same: 64 lowercase hexadecimal digits.

ALTER TABLE events DROP CONSTRAINT events_body_hash_format;
ALTER TABLE events ADD CONSTRAINT events_body_hash_format
    CHECK (body_hash ~ '^[0-9a-f]+$' AND octet_length(body_hash) = 64);
