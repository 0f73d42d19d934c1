import { useT } from '../state/context';

export interface Crumb {
  label: string;
  href?: string;
}

/** Home first, then the given trail; the last crumb is the current page. */
export function Breadcrumbs({ trail }: { trail: Crumb[] }) {
  const t = useT();
  const crumbs: Crumb[] = [{ label: t('nav.home'), href: '/' }, ...trail];
  return (
    <nav className="breadcrumbs" aria-label={t('nav.breadcrumbs')}>
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={`${i}-${c.label}`}>
              {c.href && !last ? <a href={c.href}>{c.label}</a> : <span aria-current={last ? 'page' : undefined}>{c.label}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
