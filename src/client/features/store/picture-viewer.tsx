import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';

export interface ViewerPicture {
  idx: number;
  src: string;
  width: number;
  height: number;
}

interface ViewerProps {
  title: string;
  pictures: ViewerPicture[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
}

const SWIPE_PX = 40;

/**
 * The full-screen picture viewer: arrow keys and swipes step through the pictures, Escape closes,
 * the next picture is loaded ahead, and focus stays inside while it is open (back to the opening
 * thumbnail afterwards, which the caller does).
 */
export function PictureViewer({ title, pictures, index, onIndex, onClose }: ViewerProps) {
  const t = useT();
  const rootRef = useRef<HTMLDivElement>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const count = pictures.length;
  const pic = pictures[index];
  const step = (d: number) => onIndex((index + d + count) % count);

  useEffect(() => {
    rootRef.current?.querySelector<HTMLElement>('.viewer-close')?.focus();
  }, []);
  // The page behind is inert and does not scroll; Escape and Tab are handled below.
  useModal(!!pic, { rootRef });

  // Preload the next picture (and the previous, for stepping back).
  useEffect(() => {
    for (const d of [1, -1]) {
      const next = pictures[(index + d + count) % count];
      if (next && next !== pic) new Image().src = next.src;
    }
  }, [index]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') onClose();
    else if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'Tab') {
      // Keep focus inside the viewer.
      const items = Array.from(rootRef.current?.querySelectorAll<HTMLElement>('button') ?? []);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && document.activeElement === first) last.focus();
      else if (!e.shiftKey && document.activeElement === last) first.focus();
      else return;
    } else return;
    e.preventDefault();
  };
  const onDown = (e: PointerEvent) => (start.current = { x: e.clientX, y: e.clientY });
  const onUp = (e: PointerEvent) => {
    const s = start.current;
    start.current = null;
    if (!s) return;
    const dx = e.clientX - s.x;
    if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - s.y)) step(dx < 0 ? 1 : -1);
  };
  if (!pic) return null;

  return (
    <div ref={rootRef} className="picture-viewer" role="dialog" aria-modal="true" aria-label={t('store.viewer.label', { title })} onKeyDown={onKey} data-testid="picture-viewer" data-index={pic.idx}>
      <div className="viewer-stage" onPointerDown={onDown} onPointerUp={onUp}>
        <img src={pic.src} alt={t('store.viewer.alt', { title, n: index + 1, count })} width={pic.width} height={pic.height} draggable={false} data-testid="viewer-image" />
      </div>
      <p className="viewer-count" aria-live="polite">
        {t('store.viewer.count', { n: index + 1, count })}
      </p>
      <button type="button" className="viewer-btn viewer-prev" onClick={() => step(-1)} aria-label={t('store.viewer.previous')}>
        <Icon name="chevronLeft" size={32} />
      </button>
      <button type="button" className="viewer-btn viewer-next" onClick={() => step(1)} aria-label={t('store.viewer.next')}>
        <Icon name="chevronRight" size={32} />
      </button>
      <button type="button" className="viewer-btn viewer-close" onClick={onClose} aria-label={t('store.viewer.close')} data-testid="viewer-close">
        <Icon name="close" size={28} />
      </button>
    </div>
  );
}
