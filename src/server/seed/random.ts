import { mulberry32 } from '../../shared/random';

// ---------------------------------------------------------------------------------------------
// Randomness: seeded, so every run and every runtime gets the same catalogue.

type Rng = () => number;

export class Random {
  private readonly next: Rng;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i];
      out[i] = out[j];
      out[j] = tmp;
    }
    return out;
  }
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

const TRANSLIT: Record<string, string> = {
  ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue',
  ł: 'l', Ł: 'L', ø: 'o', Ø: 'O', æ: 'ae', Æ: 'Ae',
};

/** kebab-case ASCII; German umlauts are transliterated rather than stripped (Käthe -> kaethe). */
export function slugify(value: string): string {
  return value
    .replace(/[äöüßÄÖÜłŁøØæÆ]/g, (c) => TRANSLIT[c] ?? c)
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/\+/g, ' plus ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function round4(n: number): number {
  return Math.round(n * 10000) / 10000;
}

export function joinList(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}
