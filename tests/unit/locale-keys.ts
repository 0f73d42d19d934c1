/** Every leaf path of a locale object ("a.b.0.c"), with its value. */
export function keyPaths(node: unknown, prefix = ''): [string, unknown][] {
  if (node === null || typeof node !== 'object') return [[prefix, node]];
  return Object.entries(node).flatMap(([k, v]) => keyPaths(v, prefix ? `${prefix}.${k}` : k));
}

/** Paths present in `a` but not in `b`. */
export function missingKeys(a: unknown, b: unknown): string[] {
  const have = new Set(keyPaths(b).map(([p]) => p));
  return keyPaths(a)
    .map(([p]) => p)
    .filter((p) => !have.has(p));
}
