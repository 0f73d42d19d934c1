/** Longest redirect target taken from input; anything longer falls back. */
export const REDIRECT_MAX_LENGTH = 1000;

// C0 controls, DEL, C1 controls and the Unicode line/paragraph separators, raw or percent-encoded.
// Browsers drop TAB/CR/LF inside URLs (`/\t/evil.example` becomes `//evil.example`), and a CR/LF
// in a Location header is a header injection: none of them belongs in a path we send anyone to.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|%(?:[01][0-9a-f]|7f)/i;

/**
 * The one check for every redirect target taken from input or storage (server and client).
 * Resolves `value` against the own origin and accepts it only if it stays there; answers the
 * path + query + hash (never an origin), else `fallback`.
 */
export function safeRedirect(value: unknown, ownOrigin: string, fallback = '/'): string {
  if (typeof value !== 'string' || value === '' || value.length > REDIRECT_MAX_LENGTH || CONTROL.test(value)) return fallback;
  let own: URL;
  let url: URL;
  try {
    own = new URL(ownOrigin);
    url = new URL(value, own.origin);
  } catch {
    return fallback;
  }
  if (url.origin !== own.origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.example` resolves to the path `//evil.example`, which a browser reads as another host.
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\') || CONTROL.test(target)) return fallback;
  return target;
}
