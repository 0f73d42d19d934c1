import type { AnchorHTMLAttributes } from 'react';

/** A link that looks like a button (primary, outline or text). */
export function LinkButton({ kind, ...anchor }: AnchorHTMLAttributes<HTMLAnchorElement> & { kind: 'primary' | 'outline' | 'text' }) {
  return <a className={`btn btn-${kind}`} {...anchor} />;
}
