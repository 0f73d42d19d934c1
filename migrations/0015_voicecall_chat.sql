-- Voice-call sessions (issue 11 point 10): a chat session started while the browser session is in
-- voice-call mode is paid by the running phone call, not in coins. It names that phone billing;
-- the room ends the session as soon as the call is no longer active.
ALTER TABLE chat_sessions ADD COLUMN phone_billing_id INTEGER REFERENCES billings (id);
