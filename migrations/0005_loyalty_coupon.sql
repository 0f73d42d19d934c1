-- A coin voucher any member can redeem in the profile (WELCOME50 is for sign-up only).
INSERT INTO coupons (code, type, value, currency, valid_until, signup_only, created_at) VALUES
  ('LOYAL25', 'COINS', 25, 'EUR', 4102444800, 0, 1767225600);
