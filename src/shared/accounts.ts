import { z } from 'zod';
import { NICKNAME_PATTERN, PASSWORD_MIN, USERNAME_PATTERN } from './account-rules';

// Wire contract of the account calls: used by the worker to
// validate and by the islands for the same rules in forms. Messages are error codes the
// client translates as errors.<code>.

const MAX = 255;

export const nickname = z.string().max(1024, 'nickname_pattern').normalize('NFKC').trim().regex(NICKNAME_PATTERN, 'nickname_pattern');
const email = z.string().trim().max(254, 'too_long').email('email_invalid');
const password = z.string().min(PASSWORD_MIN, 'password_too_short').max(1024, 'too_long');

export const loginSchema = z.union([
  z.object({ username: z.string().trim().min(1, 'required').max(MAX, 'too_long'), password: z.string().min(1, 'required').max(1024, 'too_long') }),
  z.object({ credential: z.string().min(20, 'credential_invalid').max(8192, 'too_long'), register: z.boolean().optional() }),
]);

export const registerSchema = z.object({
  email,
  code: z.string().trim().max(64, 'too_long').optional().or(z.literal('')),
  password: password.optional(),
  username: z.string().max(1024, 'username_pattern').normalize('NFKC').trim().regex(USERNAME_PATTERN, 'username_pattern').optional(),
  terms_check: z.literal(true, 'terms_required'),
});

export const tokenSchema = z.object({ token: z.string().min(16, 'token_invalid').max(256, 'token_invalid') });
export const couponCheckSchema = z.object({ code: z.string().trim().min(3, 'coupon_too_short').max(64, 'too_long') });
export const resetSendSchema = z.object({ email: z.string().trim().min(1, 'required').max(254, 'too_long') });
export const resetSchema = z
  .object({ token: tokenSchema.shape.token, password, password_confirm: z.string().max(1024, 'too_long') })
  .refine((v) => v.password === v.password_confirm, { message: 'password_mismatch', path: ['password_confirm'] });
export const nicknameAddSchema = z.object({ nickname });
export const newsletterSchema = z.object({ newsletter: z.boolean() });
export const userUpdateSchema = z
  .object({
    email: email.optional(),
    password: password.optional(),
    password_confirm: z.string().max(1024, 'too_long').optional(),
    current_password: z.string().max(1024, 'too_long').optional(),
    locale: z.enum(['en', 'de']).optional(),
  })
  .refine((v) => v.password === undefined || v.password === v.password_confirm, { message: 'password_mismatch', path: ['password_confirm'] })
  .refine((v) => (v.password === undefined && v.email === undefined) || !!v.current_password, {
    message: 'required',
    path: ['current_password'],
  });
export const cancelSchema = z.object({ password: z.string().min(1, 'required').max(1024, 'too_long') });
export const vidSchema = z.object({ vid: z.string().trim().min(8, 'vid_invalid').max(128, 'too_long'), confidence: z.number().min(0).max(1) });
export const incentiveSchema = z.object({ incentive_tsp: z.number().int().min(0).max(4_102_444_800) });
export const userLogSchema = z.object({
  memberid: z.number().int().positive().optional(),
  version: z.string().max(64, 'too_long'),
  errors: z.array(z.unknown()).max(50),
});

/** A likely typo fix for common mail domains (register/mailcheck). */
const DOMAINS = ['gmail.com', 'gmx.de', 'gmx.net', 'web.de', 'yahoo.com', 'yahoo.de', 'hotmail.com', 'outlook.com', 't-online.de', 'icloud.com', 'freenet.de', 'aol.com', 'live.com', 'mail.de'];

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

export function suggestEmail(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.length > 254) return null;
  const domain = address.slice(at + 1).toLowerCase();
  if (!domain || DOMAINS.includes(domain)) return null;
  let best: string | null = null;
  let bestDistance = 3;
  for (const known of DOMAINS) {
    const dist = distance(domain, known);
    if (dist < bestDistance) {
      best = known;
      bestDistance = dist;
    }
  }
  return best ? `${address.slice(0, at)}@${best}` : null;
}
