import { useEffect, useState } from 'react';
import { FAVORITE_POLL_MS, type HistoryItem } from '../../../shared/favorites';
import { isPerformerUser } from '../../../shared/drawer';
import type { User } from '../../../shared/session';
import { showHref, showImageSrc } from '../../../shared/shows';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { liveOnline } from '../../state/live';
import { HistoryIcon } from '../../ui/history-icon';
import { HeartIcon } from './favorite-button';
import { clearHistory, firstError, loadFavorites, loadHistory } from './favorites-actions';
import { FavStatus } from './fav-status';
import { useDropdown } from '../../ui/use-dropdown';
import { DropdownToggle } from '../../ui/dropdown-toggle';

/**
 * The top bar's history and favourites menus (members only). Favourites load at once and every
 * 60 s (the spec's poll, a fallback: online states follow show:bulkupdate live), and the
 * "favourite is online" notice of the lobby socket shows as a snackbar in every open tab.
 */
export default function TopMenus() {
  const snap = useSnap();
  const store = useStore();
  const t = useT();
  const userId = snap.user?.id ?? null;
  const notice = snap.favorites.notice;

  useEffect(() => {
    if (userId === null) return;
    const load = () => void loadFavorites(store).catch(() => undefined);
    load();
    const timer = setInterval(load, FAVORITE_POLL_MS);
    return () => clearInterval(timer);
  }, [store, userId]);

  useEffect(() => {
    if (!notice) return;
    store.live.online[notice.showId] = true;
    showSnackbar(store, t('favorites.onlineNow', { name: notice.name }), {
      action: { label: t('favorites.watch'), href: showHref({ id: notice.showId, slugName: notice.slugName }) },
    });
  }, [notice, store, t]);

  // Favourites and history are a member's; a performer's top bar keeps to the studio.
  if (!snap.user || isPerformerUser(snap.user as User)) return null;
  return (
    <div className="top-menus">
      <HistoryMenu />
      <FavoritesMenu />
    </div>
  );
}

function FavoritesMenu() {
  const snap = useSnap();
  const t = useT();
  const dropdown = useDropdown();
  const { open, wrapRef } = dropdown;
  const list = snap.favorites.list ?? [];
  const online = list.filter((f) => liveOnline(snap.live, f.id, f.online)).length;
  return (
    <div className="top-menu-wrap" ref={wrapRef}>
      <DropdownToggle
        dropdown={dropdown}
        controls="favorites-menu"
        className="btn btn-text top-menu-toggle"
        aria-label={online > 0 ? t('favorites.menuOnline', { count: online }) : t('favorites.menu')}
        data-testid="favorites-toggle"
      >
        <HeartIcon filled={online > 0} />
        {online > 0 && (
          <span className="top-menu-badge" data-testid="favorites-badge" aria-hidden="true">
            {online}
          </span>
        )}
      </DropdownToggle>
      {open && (
        <div id="favorites-menu" className="dropdown-panel top-menu" data-testid="favorites-menu">
          <p className="top-menu-title">{t('favorites.menu')}</p>
          {list.length === 0 ? (
            <p className="top-menu-empty">{t('favorites.menuEmpty')}</p>
          ) : (
            <ul>
              {[...list]
                .sort((a, b) => Number(liveOnline(snap.live, b.id, b.online)) - Number(liveOnline(snap.live, a.id, a.online)))
                .map((f) => (
                  <MenuShow key={f.id} show={f} />
                ))}
            </ul>
          )}
          <a className="top-menu-more" href="/users/profile/favorites" data-testid="favorites-all">
            {t('favorites.menuAll')}
          </a>
        </div>
      )}
    </div>
  );
}

function MenuShow({ show }: { show: { id: number; name: string; slugName: string; online: boolean } }) {
  const snap = useSnap();
  const online = liveOnline(snap.live, show.id, show.online);
  return (
    <li>
      <a href={showHref(show)} data-show-id={show.id} data-online={online ? '1' : '0'}>
        <img src={showImageSrc(show.id, 1)} alt="" width={36} height={27} loading="lazy" />
        <span className="top-menu-name">{show.name}</span>
        <FavStatus online={online} />
      </a>
    </li>
  );
}

function HistoryMenu() {
  const store = useStore();
  const t = useT();
  const dropdown = useDropdown();
  const { open, wrapRef } = dropdown;
  const [items, setItems] = useState<HistoryItem[] | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    loadHistory()
      .then((data) => live && setItems(data))
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [open]);

  const clear = async () => {
    try {
      await clearHistory();
      setItems([]);
      showSnackbar(store, t('favorites.historyCleared'), { timeout: 3000 });
    } catch (e) {
      showSnackbar(store, firstError(t, e));
    }
  };

  return (
    <div className="top-menu-wrap" ref={wrapRef}>
      <DropdownToggle dropdown={dropdown} controls="history-menu" className="btn btn-text top-menu-toggle" aria-label={t('favorites.historyMenu')} data-testid="history-toggle">
        <HistoryIcon />
      </DropdownToggle>
      {open && (
        <div id="history-menu" className="dropdown-panel top-menu" data-testid="history-menu">
          <p className="top-menu-title">{t('favorites.historyMenu')}</p>
          {items === null ? (
            <span className="spinner" aria-hidden="true" />
          ) : items.length === 0 ? (
            <p className="top-menu-empty" data-testid="history-empty">
              {t('favorites.historyEmpty')}
            </p>
          ) : (
            <>
              <ul data-testid="history-list">
                {items.map((h) => (
                  <MenuShow key={h.id} show={h} />
                ))}
              </ul>
              <button type="button" className="btn btn-text top-menu-more" data-testid="history-clear" onClick={() => void clear()}>
                {t('favorites.historyClear')}
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
