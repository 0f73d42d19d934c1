-- Pay by phone: the phone line charges a phone billing once when the call connects (status
-- 'paid', coins credited through the ledger); the call itself may run on. Its start and end are
-- kept apart from the payment status, so a charged call stays 'paid' after it ends.
ALTER TABLE billings ADD COLUMN call_started_at INTEGER;
ALTER TABLE billings ADD COLUMN call_ended_at INTEGER;
