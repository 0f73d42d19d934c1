// Account rules without zod, so the browser can check forms without loading the schema library.

// Nicknames and usernames are Latin letters (A-Z, a-z), digits, dot, underscore and hyphen, after
// NFKC normalisation (full-width `ｄｅｍｏ` becomes `demo`), compared case-insensitively. Other
// scripts are refused rather than compared by confusable skeletons: `dеmo` with a Cyrillic е or
// `ᴅᴇᴍᴏ` in small capitals cannot stand beside `demo`, and the rule is the same in every place.

/** Nickname: 3 to 15 Latin letters, digits, dot, underscore or hyphen (part 2 section 5). */
export const NICKNAME_PATTERN = /^[A-Za-z0-9._-]{3,15}$/;
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,30}$/;
export const PASSWORD_MIN = 8;

/** What a typed nickname or username is checked and stored as. */
export function normalizeName(value: string): string {
  return value.normalize('NFKC').trim();
}
