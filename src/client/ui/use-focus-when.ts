import { useEffect, useRef } from 'react';

/** A ref whose element gets the focus whenever `when` turns truthy (a form on open, a result). */
export function useFocusWhen<T extends HTMLElement>(when: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (when) ref.current?.focus();
  }, [when]);
  return ref;
}
