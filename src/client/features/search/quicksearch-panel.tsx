import { useEffect, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { QUICKSEARCH_MIN_CHARS } from '../../../shared/constants';
import type { SearchAll } from '../../../shared/shows';
import { api } from '../../lib/api';
import { clearHistory, loadHistory, rememberSearch } from './search-history';
import { useSnap, useT } from '../../state/context';
import { createQuicksearch, searchable, searchHref, type Option, type Quicksearch as Controller, type QuicksearchState } from './quicksearch-state';
import { HistoryIcon } from '../../ui/history-icon';
import { resultGroups } from './quicksearch-results';

export interface QuicksearchPanelProps {
  input: HTMLInputElement;
  form: HTMLFormElement;
  onExpanded: (expanded: boolean) => void;
  closeRef: MutableRefObject<(() => void) | null>;
}

/**
 * The quicksearch behind the top bar's field, loaded when the field is first used: results
 * grouped by shows, videos and galleries after 3 characters and 500 ms, Enter for the full
 * search, arrow keys through the results, the search history while the field is empty. It
 * drives the field the island rendered (listeners and ARIA attributes), so focus never moves.
 */
export default function QuicksearchPanel({ input, form, onExpanded, closeRef }: QuicksearchPanelProps) {
  const t = useT();
  const snap = useSnap();
  const [state, setState] = useState<QuicksearchState>({ query: '', status: 'idle', results: null });
  const [history, setHistory] = useState<string[]>([]);
  const [active, setActive] = useState(-1);
  const ctrl = useRef<Controller | null>(null);

  const qs = (): Controller =>
    (ctrl.current ??= createQuicksearch({
      search: (query, signal) => api().get<SearchAll>('search/all', { search: query, page: 1, limit: 6, extend: 0 }, signal),
      onChange: (s) => {
        setState(s);
        setActive(-1);
      },
    }));

  const go = (href: string, remember?: string) => {
    if (remember) setHistory(rememberSearch(remember));
    qs().close();
    location.assign(href);
  };

  const pickHistory = (entry: string) => {
    input.value = entry;
    qs().searchNow(entry);
    input.focus();
  };

  // What the panel shows, and the options the arrow keys walk through.
  const { status, query, results } = state;
  const trimmed = query.trim();
  const options: Option[] = [];
  const content: ReactNode[] = [];
  const opt = (o: Omit<Option, 'id'>) => {
    const option = { ...o, id: `qs-opt-${options.length}` };
    options.push(option);
    return option;
  };
  const optionProps = (o: Option) => ({
    id: o.id,
    role: 'option' as const,
    'aria-selected': options[active]?.id === o.id,
    className: options[active]?.id === o.id ? 'qs-option active' : 'qs-option',
  });

  if (status !== 'idle') {
    if (trimmed === '' && history.length > 0) {
      content.push(
        <div key="history" className="qs-group" role="group" aria-labelledby="qs-history-title">
          <div className="qs-group-head">
            <span id="qs-history-title">{t('search.quick.history')}</span>
            <button
              type="button"
              className="qs-clear"
              onClick={() => {
                clearHistory();
                setHistory([]);
                input.focus();
              }}
              data-testid="qs-clear-history"
            >
              {t('search.quick.clearHistory')}
            </button>
          </div>
          {history.map((entry) => {
            const o = opt({ run: () => pickHistory(entry) });
            return (
              <button key={entry} type="button" tabIndex={-1} {...optionProps(o)} onClick={o.run} data-testid="qs-history-entry">
                <HistoryIcon />
                <span className="qs-text">{entry}</span>
              </button>
            );
          })}
        </div>,
      );
    } else if (trimmed !== '' && !searchable(trimmed)) {
      content.push(
        <p key="hint" className="qs-note">
          {t('search.quick.minChars', { count: QUICKSEARCH_MIN_CHARS })}
        </p>,
      );
    }
    if (status === 'loading') {
      content.push(
        <p key="loading" className="qs-note qs-loading">
          <span className="list-spinner" aria-hidden="true" />
          {t('search.quick.loading')}
        </p>,
      );
    }
    if (status === 'empty') content.push(<p key="empty" className="qs-note" data-testid="qs-empty">{t('search.quick.noResults', { term: trimmed })}</p>);
    if (status === 'error') content.push(<p key="error" className="qs-note">{t('search.quick.error')}</p>);
    if (results && (status === 'results' || status === 'loading')) content.push(...resultGroups(results, { t, live: snap.live, query: trimmed, opt, optionProps, go }));
  }

  const open = content.length > 0;
  const expanded = status !== 'idle';
  const activeId = active >= 0 && options[active] ? options[active].id : '';

  // Handlers see this render's options and state through a ref (the listeners are added once).
  const now = useRef({ options, active, status });
  now.current = { options, active, status };

  useEffect(() => {
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', 'qs-panel');
    input.setAttribute('autocomplete', 'off');
    const onInput = () => qs().input(input.value);
    const onFocus = () => {
      setHistory(loadHistory());
      qs().focus();
    };
    const onBlur = () => qs().blur();
    const onKeyDown = (e: KeyboardEvent) => {
      const { options: opts, status: st } = now.current;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (opts.length === 0) return;
        e.preventDefault();
        const d = e.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => {
          const next = i + d;
          return next < -1 ? opts.length - 1 : next >= opts.length ? -1 : next;
        });
      } else if (e.key === 'Escape') {
        if (st !== 'idle') {
          e.preventDefault();
          qs().close();
        } else input.blur();
      }
    };
    const onSubmit = (e: SubmitEvent) => {
      e.preventDefault();
      const { options: opts, active: at } = now.current;
      const o = opts[at];
      if (o?.run) return o.run();
      if (o?.href) return go(o.href, o.remember);
      // The field itself, not the last render: Enter may come before the last keys rendered.
      const q = input.value.trim();
      go(searchHref(q), q || undefined);
    };
    input.addEventListener('input', onInput);
    input.addEventListener('focus', onFocus);
    input.addEventListener('blur', onBlur);
    input.addEventListener('keydown', onKeyDown);
    form.addEventListener('submit', onSubmit);
    closeRef.current = () => {
      qs().close();
      input.blur();
    };
    // Loaded because the field got focus (or was typed into before this arrived): catch up.
    if (document.activeElement === input) {
      setHistory(loadHistory());
      if (input.value.trim()) qs().searchNow(input.value);
      else qs().focus();
    }
    return () => {
      input.removeEventListener('input', onInput);
      input.removeEventListener('focus', onFocus);
      input.removeEventListener('blur', onBlur);
      input.removeEventListener('keydown', onKeyDown);
      form.removeEventListener('submit', onSubmit);
      closeRef.current = null;
      ctrl.current?.dispose();
    };
  }, [input, form]);

  useEffect(() => {
    input.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (activeId) input.setAttribute('aria-activedescendant', activeId);
    else input.removeAttribute('aria-activedescendant');
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [input, open, activeId]);

  useEffect(() => onExpanded(expanded), [expanded, onExpanded]);

  return (
    <>
      <div
        id="qs-panel"
        className="qs-panel"
        role="listbox"
        aria-label={t('search.quick.results')}
        hidden={!open}
        onMouseDown={(e) => e.preventDefault()}
        data-testid="quicksearch-panel"
        data-status={status}
      >
        {content}
      </div>
      <p className="sr-only" aria-live="polite">
        {status === 'results' && results
          ? t('search.quick.announce', { count: results.shows.total + results.videos.total + results.galleries.total })
          : status === 'empty'
            ? t('search.quick.noResults', { term: trimmed })
            : ''}
      </p>
    </>
  );
}
