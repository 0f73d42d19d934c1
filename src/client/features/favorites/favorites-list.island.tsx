import { useEffect, useState } from 'react';
import { showHref, showImageSrc } from '../../../shared/shows';
import { confirmDialog, showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { liveOnline } from '../../state/live';
import { EmptyPanel } from '../../ui/empty-panel';
import { Icon } from '../../ui/icon';
import { FavoriteSettings } from './favorite-settings';
import type { Favorite } from '../../../shared/favorites';
import { firstError, removeFavorite } from './favorites-actions';
import { FavStatus } from './fav-status';

const COG =
  'M19.14 12.94c.04-.3.06-.61.06-.94 0-.32-.02-.64-.07-.94l2.03-1.58a.49.49 0 0 0 .12-.61l-1.92-3.32a.49.49 0 0 0-.59-.22l-2.39.96c-.5-.38-1.03-.7-1.62-.94l-.36-2.54a.48.48 0 0 0-.48-.41h-3.84c-.24 0-.43.17-.47.41l-.36 2.54c-.59.24-1.13.57-1.62.94l-2.39-.96a.48.48 0 0 0-.59.22L2.74 8.87c-.12.21-.08.47.12.61l2.03 1.58c-.05.3-.09.63-.09.94s.02.64.07.94l-2.03 1.58a.49.49 0 0 0-.12.61l1.92 3.32c.12.22.37.29.59.22l2.39-.96c.5.38 1.03.7 1.62.94l.36 2.54c.05.24.24.41.48.41h3.84c.24 0 .44-.17.47-.41l.36-2.54c.59-.24 1.13-.56 1.62-.94l2.39.96c.22.08.47 0 .59-.22l1.92-3.32c.12-.22.07-.47-.12-.61l-2.01-1.58zM12 15.6A3.6 3.6 0 1 1 12 8.4a3.6 3.6 0 0 1 0 7.2z';
const DELETE = 'M6 19c0 1.1.9 2 2 2h8c1.1 0 2-.9 2-2V7H6v12zM19 4h-3.5l-1-1h-5l-1 1H5v2h14V4z';

function Svg({ d }: { d: string }) {
  return (
    <svg className="icon" width={22} height={22} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} fill="currentColor" />
    </svg>
  );
}

/**
 * The profile's favourites tab: thumbnail, name, live online state, the notification cog (with an
 * envelope badge while a notice type is set) and delete with confirmation. Empty: `empty` (the
 * server-rendered empty state).
 */
export default function FavoritesList({ initial, empty }: { initial: Favorite[]; empty: { title: string; text: string; href: string; link: string } }) {
  const snap = useSnap();
  const store = useStore();
  const t = useT();
  const [editing, setEditing] = useState<number | null>(null);
  // The server rendered the list; the store's copy (loaded by the top bar, kept up to date) wins once there.
  const list = snap.favorites.list ?? initial;

  useEffect(() => {
    if (store.favorites.list === null) store.favorites.list = initial;
  }, [store, initial]);

  if (list.length === 0) {
    return (
      <EmptyPanel icon="star" title={empty.title} text={empty.text} link={{ href: empty.href, label: empty.link }} testId="favorites-empty" />
    );
  }

  const remove = async (id: number, name: string) => {
    const ok = await confirmDialog(store, { title: t('favorites.confirmDelete', { name }), text: name, confirmLabel: t('favorites.confirm') });
    if (!ok) return;
    try {
      await removeFavorite(store, id);
      showSnackbar(store, t('favorites.removed', { name }), { timeout: 3000 });
    } catch (e) {
      showSnackbar(store, firstError(t, e));
    }
  };
  const current = editing === null ? null : (list.find((f) => f.id === editing) ?? null);

  return (
    <section className="fav-list-wrap">
      <h2>{t('favorites.listTitle')}</h2>
      <p className="muted">{t('favorites.listLead')}</p>
      <ul className="fav-list" data-testid="favorites-list">
        {list.map((f) => {
          const online = liveOnline(snap.live, f.id, f.online);
          return (
            <li key={f.id} className="fav-item" data-show-id={f.id} data-online={online ? '1' : '0'}>
              <a className="fav-item-link" href={showHref(f)}>
                <img src={showImageSrc(f.id, 1)} alt="" width={64} height={48} loading="lazy" />
                <span className="fav-item-name">{f.name}</span>
                <FavStatus online={online} />
              </a>
              <button type="button" className="icon-button fav-cog" aria-label={t('favorites.settings', { name: f.name })} data-testid="favorite-cog" onClick={() => setEditing(f.id)}>
                <Svg d={COG} />
                {f.info_type && (
                  <span className="fav-envelope" data-testid="favorite-envelope" title={t('favorites.noticeOn')}>
                    <Icon name="mail" size={12} />
                  </span>
                )}
              </button>
              <button type="button" className="icon-button fav-delete" aria-label={t('favorites.delete', { name: f.name })} data-testid="favorite-delete" onClick={() => void remove(f.id, f.name)}>
                <Svg d={DELETE} />
              </button>
            </li>
          );
        })}
      </ul>
      {current && <FavoriteSettings fav={current} onClose={() => setEditing(null)} />}
    </section>
  );
}
