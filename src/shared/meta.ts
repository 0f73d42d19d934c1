/** Search engines show about 155-160 characters of a meta description: longer ones are cut there. */
export const META_DESCRIPTION_MAX = 160;

/**
 * Text for `<meta name="description">`: whitespace collapsed, cut at a word boundary with an
 * ellipsis when longer than max (by characters, so an emoji is never halved).
 */
export function metaDescription(text: string, max = META_DESCRIPTION_MAX): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  if (chars.length <= max) return chars.join('');
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space > max / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.–-]+$/, '')}…`;
}
