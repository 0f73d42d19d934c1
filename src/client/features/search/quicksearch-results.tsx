import type { ReactNode } from 'react';
import { showHref, showImageSrc, type SearchAll } from '../../../shared/shows';
import { formatDuration } from '../../../shared/show-lists';
import type { TFunction } from '../../../shared/translate';
import { liveOnline } from '../../state/live';
import { Icon } from '../../ui/icon';
import { searchHref, type Option } from './quicksearch-state';

/** What the result rows take from the panel, which numbers the options the arrow keys walk through. */
export interface ResultRows {
  t: TFunction;
  live: Parameters<typeof liveOnline>[0];
  /** The trimmed query: kept in the search history when a result is followed. */
  query: string;
  opt: (o: Omit<Option, 'id'>) => Option;
  optionProps: (o: Option) => { id: string; role: 'option'; 'aria-selected': boolean; className: string };
  go: (href: string, remember?: string) => void;
}

/** A video or gallery result: its picture, title and a line about it; it opens the show. */
function mediaRow(rows: ResultRows, key: number, href: string, image: string, height: number, title: string, sub: string) {
  const o = rows.opt({ href, remember: rows.query });
  return (
    <a key={key} href={o.href} tabIndex={-1} {...rows.optionProps(o)} onClick={(e) => (e.preventDefault(), rows.go(href, rows.query))}>
      <img src={image} alt="" width={48} height={height} loading="lazy" />
      <span className="qs-text">
        <span className="qs-title">{title}</span>
        <span className="qs-sub muted">{sub}</span>
      </span>
    </a>
  );
}

/** The results grouped by shows, videos and galleries, then the link to the full search. */
export function resultGroups(r: SearchAll, rows: ResultRows): ReactNode[] {
  const out: ReactNode[] = [];
  const group = (key: 'shows' | 'videos' | 'galleries', total: number, items: ReactNode[]) =>
    items.length > 0 &&
    out.push(
      <div key={key} className="qs-group" role="group" aria-labelledby={`qs-${key}-title`}>
        <div className="qs-group-head">
          <span id={`qs-${key}-title`}>{rows.t(`search.section.${key}`, { count: total })}</span>
        </div>
        {items}
      </div>,
    );
  group(
    'shows',
    r.shows.total,
    r.shows.data.map((s) => {
      const o = rows.opt({ href: showHref(s), remember: rows.query });
      const online = liveOnline(rows.live, s.id, s.online);
      return (
        <a key={s.id} href={o.href} tabIndex={-1} {...rows.optionProps(o)} onClick={(e) => (e.preventDefault(), rows.go(o.href!, rows.query))}>
          <img src={showImageSrc(s.id, 1)} alt="" width={48} height={36} loading="lazy" />
          <span className="qs-text">
            <span className="qs-title">
              {s.name} <span className="muted">{s.age}</span>
            </span>
            <span className="qs-sub muted">{s.city}</span>
          </span>
          <span className={online ? 'qs-live online' : 'qs-live'}>
            <span className="dot" aria-hidden="true" />
            {online ? rows.t('shows.online') : rows.t('shows.offline')}
          </span>
        </a>
      );
    }),
  );
  const video = (v: SearchAll['videos']['data'][number]) =>
    mediaRow(rows, v.id, showHref({ id: v.show_id, slugName: v.showSlug }), v.image, 27, v.title, `${v.showName} · ${formatDuration(v.duration)}`);
  const gallery = (g: SearchAll['galleries']['data'][number]) =>
    mediaRow(rows, g.id, showHref({ id: g.showId, slugName: g.showSlug }), g.image, 36, g.title, `${g.showName} · ${rows.t('search.pictures', { count: g.picture_count })}`);
  group('videos', r.videos.total, r.videos.data.map(video));
  group('galleries', r.galleries.total, r.galleries.data.map(gallery));
  if (out.length > 0) {
    const o = rows.opt({ href: searchHref(rows.query), remember: rows.query });
    out.push(
      <a key="all" href={o.href} tabIndex={-1} {...rows.optionProps(o)} onClick={(e) => (e.preventDefault(), rows.go(o.href!, rows.query))} data-testid="qs-all">
        <Icon name="search" size={18} />
        <span className="qs-text qs-title">{rows.t('search.quick.showAll')}</span>
      </a>,
    );
  }
  return out;
}
