-- When a delivery's current lease began. A `dead_token` ack reports a failure the consumer saw during that lease,
-- so the device the push went to keeps its registration when it registered again after the claim (with the same
-- token or another), and only that device is judged, whichever device holds the token by the time of the ack.
ALTER TABLE deliveries ADD COLUMN leased_at timestamptz;
