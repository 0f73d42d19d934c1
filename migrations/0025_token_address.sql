-- Issue 24 point 10: a mailed link (verify, reset, login) belongs to the address it was sent to.
-- It is used only while the account still has that address, so a link mailed to an own address
-- cannot verify (or reset) one the member changed to later. Rows from before are bound to the
-- address the account has now, the best that is known of where they went.
ALTER TABLE user_tokens ADD COLUMN email TEXT COLLATE NOCASE;
UPDATE user_tokens SET email = (SELECT u.email FROM users u WHERE u.id = user_tokens.user_id);
