-- An installation registered by another user (a sign-out and sign-in on the same device, through the app's
-- backend) moves to that user; the move is recorded like every other way a user loses a device.
ALTER TABLE device_deactivations DROP CONSTRAINT device_deactivations_cause_valid;
ALTER TABLE device_deactivations ADD CONSTRAINT device_deactivations_cause_valid
    CHECK (cause IN ('feedback', 'signed_out', 'token_moved', 'user_changed'));
