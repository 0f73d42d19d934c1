import { useEffect } from 'react';
import { useSnap } from '../../state/context';
import { FavoriteButton } from './favorite-button';
import { recordVisit } from './favorites-actions';

/** The show page's heart; opening the page as a member records it in the history. */
export default function ShowFavorite({ id, name, isFavorite }: { id: number; name: string; isFavorite: boolean }) {
  const snap = useSnap();
  const member = snap.user?.id ?? null;
  useEffect(() => {
    if (member !== null) void recordVisit(id).catch(() => undefined);
  }, [id, member]);
  return <FavoriteButton show={{ id, name }} initial={isFavorite} className="fav-button-page" />;
}
