/** A date and time as the reader's language writes it, in UTC and named so (the server's render and the browser's hydration agree). */
export function dateText(seconds: number, locale: string): string {
  return `${new Date(seconds * 1000).toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
}
