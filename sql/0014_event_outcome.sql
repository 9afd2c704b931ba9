-- An event that reaches nobody for a reason of its own has an outcome of its own: a stored document that no longer
-- decodes is `rejected.undecodable`, visible on the event's status instead of looking decided for no one.
ALTER TABLE events ADD COLUMN outcome text;
ALTER TABLE events ADD CONSTRAINT events_outcome_valid CHECK (outcome IS NULL OR outcome IN ('rejected.undecodable'));
