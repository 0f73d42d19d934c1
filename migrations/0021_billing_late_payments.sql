-- Issue 24, money. A billing is paid at most once and only while it is open: pending and younger
-- than the checkout's hold (30 minutes). A provider's 'paid' for a billing that failed, was
-- cancelled, expired or would pass the daily limit is never credited: it is recorded here, once
-- per billing, as money the operator owes back (state 'refund_due' until refunded).
CREATE TABLE late_payments (
  id INTEGER PRIMARY KEY,
  billing_id INTEGER NOT NULL UNIQUE REFERENCES billings (id),
  user_id INTEGER REFERENCES users (id),
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  currency TEXT NOT NULL,
  -- Why it was not credited: failed, cancelled, expired or limit.
  reason TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'refund_due' CHECK (state IN ('refund_due', 'refunded')),
  created_at INTEGER NOT NULL
);
CREATE INDEX late_payments_state ON late_payments (state, id);

-- The daily limit counts a payment from when it was paid (a checkout may be paid up to 30 minutes
-- after it began). Rows paid before this column existed count from their last change.
ALTER TABLE billings ADD COLUMN paid_at INTEGER;
UPDATE billings SET paid_at = updated_at WHERE status = 'paid';
CREATE INDEX billings_user_paid ON billings (user_id, paid_at);
