import { useT } from '../../state/context';

/** A favourite's online or offline label with its dot (the favourites page and the top menu). */
export function FavStatus({ online }: { online: boolean }) {
  const t = useT();
  return (
    <span className={online ? 'fav-status online' : 'fav-status offline'}>
      <span className="dot" aria-hidden="true" />
      {online ? t('favorites.online') : t('favorites.offline')}
    </span>
  );
}
