import { useEffect, useRef, useState, type ComponentType } from 'react';
import { Icon } from '../../ui/icon';
import type { QuicksearchPanelProps } from './quicksearch-panel';
import { useT } from '../../state/context';

/**
 * The top bar's search field. Without script it is a GET form to /search; the quicksearch
 * itself (results while typing, history, keyboard) arrives on first use, so it costs nothing
 * on the first load of a page.
 */
export default function Quicksearch() {
  const t = useT();
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const closeRef = useRef<(() => void) | null>(null);
  const loading = useRef(false);
  const [Panel, setPanel] = useState<ComponentType<QuicksearchPanelProps> | null>(null);
  const [expanded, setExpanded] = useState(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    import('./quicksearch-panel')
      .then((m) => setPanel(() => m.default))
      .catch(() => {
        loading.current = false; // the plain form still works
      });
  };

  // Focused (or typed into) before the page was hydrated: start now.
  useEffect(() => {
    const el = inputRef.current;
    if (el && (document.activeElement === el || el.value)) load();
  }, []);

  return (
    <div className={expanded ? 'qs qs-expanded' : 'qs'} onPointerEnter={load}>
      <form ref={formRef} className="qs-form" action="/search" method="get" role="search" aria-label={t('search.quick.label')}>
        <Icon name="search" size={20} />
        <input
          ref={inputRef}
          type="search"
          name="search"
          onFocus={load}
          placeholder={t('nav.searchPlaceholder')}
          aria-label={t('nav.search')}
          autoComplete="off"
          enterKeyHint="search"
          maxLength={200}
          data-testid="quicksearch-input"
        />
        {expanded && (
          <button type="button" className="qs-close" aria-label={t('search.quick.close')} onMouseDown={(e) => e.preventDefault()} onClick={() => closeRef.current?.()}>
            <Icon name="close" size={20} />
          </button>
        )}
      </form>
      {Panel && inputRef.current && formRef.current && (
        <Panel input={inputRef.current} form={formRef.current} onExpanded={setExpanded} closeRef={closeRef} />
      )}
    </div>
  );
}
