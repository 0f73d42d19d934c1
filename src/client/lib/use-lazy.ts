import { useEffect, useState, type ComponentType } from 'react';

export type Loader = () => Promise<{ default: ComponentType }>;

/** A component whose code loads the first time `when` is true (null until then). */
export function useLazy(load: Loader, when: boolean): ComponentType | null {
  const [C, setC] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!when || C) return;
    let alive = true;
    load()
      .then((m) => alive && setC(() => m.default))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [when, C, load]);
  return C;
}
