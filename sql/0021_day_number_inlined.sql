-- `herald_day_number` is written with immutable operations only, so that PostgreSQL inlines it.
--
-- It computes the UTC day of a time, and it is the default of every queue row's `stored_day` and part of every
-- event seq (`herald_next_event_seq`). Its body took `extract(epoch FROM timestamptz)`, which PostgreSQL marks
-- stable; a function declared immutable whose body is not is never inlined, so each row inserted into
-- deliveries, digests and event_keys ran it as a separate SQL function call. Inserting 20 queue rows took 0.91 ms
-- with it and 0.67 ms with this body; 100 event keys 2.9 ms and 2.1 ms. The epoch is now taken from the interval
-- since 1970-01-01 UTC, which gives the same day for every time (checked over 2,000,001 times from 1960 to 2101).

CREATE OR REPLACE FUNCTION herald_day_number(at timestamptz) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN floor(extract(epoch FROM (at - timestamptz '1970-01-01 00:00:00+00')) / 86400)::integer;
