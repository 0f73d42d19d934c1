import { useSnap, useStore, useT } from '../../state/context';

const HEART = 'M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z';
const HEART_OUTLINE =
  'M16.5 3c-1.74 0-3.41.81-4.5 2.09C10.91 3.81 9.24 3 7.5 3 4.42 3 2 5.42 2 8.5c0 3.78 3.4 6.86 8.55 11.54L12 21.35l1.45-1.32C18.6 15.36 22 12.28 22 8.5 22 5.42 19.58 3 16.5 3zm-4.4 15.55-.1.1-.1-.1C7.14 14.24 4 11.39 4 8.5 4 6.5 5.5 5 7.5 5c1.54 0 3.04.99 3.57 2.36h1.87C13.46 5.99 14.96 5 16.5 5c2 0 3.5 1.5 3.5 3.5 0 2.89-3.14 5.74-7.9 10.05z';

export function HeartIcon({ filled, size = 22 }: { filled: boolean; size?: number }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={filled ? HEART : HEART_OUTLINE} fill="currentColor" />
    </svg>
  );
}

/** The heart on tiles and show pages (members only): a toggle with its own accessible name, 44 px target. */
export function FavoriteButton({ show, initial, className = '' }: { show: { id: number; name: string }; initial: boolean; className?: string }) {
  const snap = useSnap();
  if (!snap.user) return null;
  return <FavoriteToggle show={show} fav={snap.favorites.marks[show.id] ?? initial} className={className} />;
}

/** The heart itself, for a member; `fav` is the current mark (a list reads the store once for all its tiles). */
export function FavoriteToggle({ show, fav, className }: { show: { id: number; name: string }; fav: boolean; className: string }) {
  const store = useStore();
  const t = useT();
  return (
    <button
      type="button"
      className={`fav-button${fav ? ' active' : ''} ${className}`}
      aria-pressed={fav}
      aria-label={t(fav ? 'favorites.remove' : 'favorites.add', { name: show.name })}
      data-testid="favorite-button"
      data-show-id={show.id}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        // The actions load with the first click (a visitor's tiles never need them).
        void import('./favorites-actions').then((m) => m.toggleFavorite(store, t, show, fav));
      }}
    >
      <HeartIcon filled={fav} />
    </button>
  );
}
