/** The named fields of an object, in the order named (an absent one stays undefined). */
export function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = o[k];
  return out;
}

/** The named 0/1 columns of a row as booleans (1: true), in the order named. */
export function flags<T extends object, K extends keyof T>(row: T, keys: readonly K[]): Record<K, boolean> {
  const out = {} as Record<K, boolean>;
  for (const k of keys) out[k] = row[k] === 1;
  return out;
}
