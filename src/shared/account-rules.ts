// Account rules without zod, so the browser can check forms without loading the schema library.

/** Nickname: 3 to 15 letters, digits, dot, underscore or hyphen (part 2 section 5). */
export const NICKNAME_PATTERN = /^[\p{L}\p{N}._-]{3,15}$/u;
export const USERNAME_PATTERN = /^[\p{L}\p{N}._-]{3,30}$/u;
export const PASSWORD_MIN = 8;
