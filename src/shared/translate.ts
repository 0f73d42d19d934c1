// A small translator over i18next-format resources ({{var}} interpolation, _one/_other plurals).
// The browser uses it for the strings the islands need, so the first-load bundle stays small;
// the server uses i18next itself. Both read the same locale files and must agree on output.
export type Resources = { [key: string]: string | Resources | Resources[] | string[] };
export type TFunction = (key: string, vars?: Record<string, unknown>) => string;

function lookup(resources: Resources, key: string): unknown {
  let node: unknown = resources;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function interpolate(text: string, vars?: Record<string, unknown>): string {
  if (!vars) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export function createTranslator(resources: Resources, locale: string): TFunction {
  const rules = new Intl.PluralRules(locale);
  return (key, vars) => {
    let value = lookup(resources, key);
    if (typeof vars?.count === 'number') {
      const plural = lookup(resources, `${key}_${rules.select(vars.count)}`) ?? lookup(resources, `${key}_other`);
      if (typeof plural === 'string') value = plural;
    }
    return typeof value === 'string' ? interpolate(value, vars) : key;
  };
}

/** The subtree of `resources` under the given top-level keys. */
export function pickResources(resources: Resources, keys: readonly string[]): Resources {
  const out: Resources = {};
  for (const k of keys) if (k in resources) out[k] = resources[k];
  return out;
}
