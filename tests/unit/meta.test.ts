import { describe, expect, it } from 'vitest';
import { META_DESCRIPTION_MAX, metaDescription } from '../../src/shared/meta';

describe('metaDescription', () => {
  it('keeps a short text whole, whitespace collapsed', () => {
    expect(metaDescription('  Sweet chats,\n live   from Dortmund ')).toBe('Sweet chats, live from Dortmund');
  });

  it('cuts a long text at a word boundary with an ellipsis, within the limit', () => {
    const long = `${'word '.repeat(60)}end`;
    const out = metaDescription(long);
    expect(out.length).toBeLessThanOrEqual(META_DESCRIPTION_MAX);
    expect(out).toBe(`${'word '.repeat(31).trim()}…`);
  });

  it('never halves an emoji and drops trailing punctuation before the ellipsis', () => {
    const out = metaDescription(`${'😀'.repeat(200)}`, 10);
    expect(Array.from(out)).toHaveLength(10);
    expect(out).toBe(`${'😀'.repeat(9)}…`);
    expect(metaDescription('one two three, four five six', 16)).toBe('one two three…');
  });
});
