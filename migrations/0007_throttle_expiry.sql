-- Expired throttle counters are pruned now and then (lib/throttle.ts); this keeps that a range scan.
CREATE INDEX throttle_reset ON throttle (reset_at);
