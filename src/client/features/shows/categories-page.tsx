import { categoryHref, type Category } from '../../../shared/shows';
import { useT } from '../../state/context';

export function CategoriesPage({ categories }: { categories: (Category & { count: number; online: number })[] }) {
  const t = useT();
  const groups = [
    { key: 'main', items: categories.filter((c) => !c.is_search) },
    { key: 'search', items: categories.filter((c) => c.is_search) },
  ];
  return (
    <section className="categories-page">
      <header className="page-header">
        <h1>{t('categories.title')}</h1>
      </header>
      {groups.map((g) => (
        <section key={g.key} className="category-group">
          <h2>{t(`categories.${g.key}`)}</h2>
          <ul className="category-list">
            {g.items.map((c) => (
              <li key={c.id}>
                <a href={categoryHref(c)} className="category-card">
                  <span className="category-name">{c.name}</span>
                  <span className="muted small">{t('categories.counts', { count: c.count, online: c.online })}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
