import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';

// The German glossary of the README: one word per thing. Each pair names the refused spelling.
const REFUSED: [RegExp, string][] = [
  [/Darsteller/, 'Performer'],
  [/Privatchat/, 'Privat-Chat'],
  [/Tagesspiel/, 'Tägliches Spiel'],
  [/Free-Chat/, 'Gratis-Chat'],
  [/Voucher/, 'Gutschein'],
  [/Münzen/, 'Coins'],
];

function strings(value: unknown, path: string, out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, path ? `${path}.${k}` : k, out);
  return out;
}

describe('German glossary', () => {
  it('de.json uses one term per thing', () => {
    const hits = strings(de, '').flatMap(([path, text]) => REFUSED.filter(([re]) => re.test(text)).map(([re, use]) => `${path}: ${re.source} (use ${use})`));
    expect(hits).toEqual([]);
  });

  it('the drawer, the game page and the chat types say it the glossary way', () => {
    expect(de.drawer.game).toBe('Tägliches Spiel');
    expect(de.game.title).toBe('Tägliches Spiel');
    expect(de.footer.becomePerformer).toBe('Performer werden');
  });
});
