-- The NATS relay: a delivery published to JetStream (herald.deliveries.<platform>, Nats-Msg-Id = its id) and
-- acknowledged by the stream is handed off. It leaves the queue as 'sent' with the time it was relayed; the
-- consumer behind the stream sends it to the push service.
ALTER TABLE deliveries ADD COLUMN relayed_at timestamptz;

-- Relayed deliveries over time (hand-off rate, the most recent hand-off).
CREATE INDEX deliveries_relayed ON deliveries (relayed_at) WHERE relayed_at IS NOT NULL;
