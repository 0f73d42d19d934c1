import type { Category } from '../../shared/shows';
import { categoryHref } from '../../shared/shows';
import { useT } from '../state/context';

/** Quick links to the featured categories; scrolls sideways below 1020 px. */
export function CategoryBar({ categories, activeId }: { categories: Category[]; activeId?: number | null }) {
  const t = useT();
  return (
    <nav className="category-bar" aria-label={t('nav.categories')}>
      <ul>
        <li>
          <a className={activeId === 0 ? 'cat-chip active' : 'cat-chip'} href="/shows/all-shows">
            {t('nav.allShows')}
          </a>
        </li>
        {categories.map((c) => (
          <li key={c.id}>
            <a className={activeId === c.id ? 'cat-chip active' : 'cat-chip'} href={categoryHref(c)} data-category={c.id}>
              {c.name}
            </a>
          </li>
        ))}
        <li>
          <a className="cat-chip more" href="/shows/categories">
            {t('nav.moreCategories')}
          </a>
        </li>
      </ul>
    </nav>
  );
}
