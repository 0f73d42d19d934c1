import { useT } from '../../state/context';

/** The note while the panel's lists (or this chunk) load. */
export function MenuLoading() {
  const t = useT();
  return (
    <p className="messages-menu-note" role="status">
      <span className="spinner" aria-hidden="true" /> {t('common.loading')}
    </p>
  );
}
