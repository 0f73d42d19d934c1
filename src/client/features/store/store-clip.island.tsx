import { useEffect, useRef, useState } from 'react';
import { formatDuration } from '../../../shared/show-lists';
import { VIDEO_PART_TAGS_SHOWN, type BuyAnswer, type PlayAnswer, type VideoDetail, type ViewAnswer } from '../../../shared/store';
import { useSnap, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { BuyBox, OwnedBox, RatingControl } from './store-controls';
import { storeCall } from './store-api';
import { VideoPlayer } from './video-player';

export type ClipVideo = Pick<
  VideoDetail,
  'id' | 'ccid' | 'title' | 'poster' | 'price' | 'owned' | 'my_rating' | 'rating' | 'rating_votes' | 'views' | 'tags' | 'parts_list'
>;

export interface StoreClipProps {
  video: ClipVideo;
  part: number;
  /** The clip's address without the part (the part is added for parts after the first). */
  basePath: string;
}

function PartTags({ tags }: { tags: ClipVideo['tags'] }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (tags.length === 0) return null;
  const shown = open ? tags : tags.slice(0, VIDEO_PART_TAGS_SHOWN);
  return (
    <div className="part-tags">
      {shown.map((tag) => (
        <a key={tag.slug} className="cat-chip" href={`/videos?tags=${encodeURIComponent(tag.slug)}`}>
          {tag.name}
        </a>
      ))}
      {tags.length > VIDEO_PART_TAGS_SHOWN && (
        <button type="button" className="btn btn-text btn-small" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="tags-more">
          {open ? t('store.tags.less') : t('store.tags.more', { count: tags.length - VIDEO_PART_TAGS_SHOWN })}
        </button>
      )}
    </div>
  );
}

/** The clip page's interactive part: parts, the player, buying, rating and the view count. */
export default function StoreClip({ video, part: initialPart, basePath }: StoreClipProps) {
  const t = useT();
  const snap = useSnap();
  const [part, setPart] = useState(initialPart);
  const [owned, setOwned] = useState(video.owned);
  const [views, setViews] = useState(video.views);
  const [fullSrc, setFullSrc] = useState<{ part: number; url: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const counted = useRef(new Set<number>());
  const current = video.parts_list.find((p) => p.part === part) ?? video.parts_list[0];
  const loggedIn = !!snap.user;
  const full = owned && loggedIn;

  // The whole part's address comes from the play call (owners only).
  useEffect(() => {
    if (!full || !current) return;
    let live = true;
    void storeCall<PlayAnswer>('GET', `videos/play/${video.ccid}/${current.part}`).then((r) => {
      if (live && r.ok) setFullSrc({ part: current.part, url: r.data.url });
    });
    return () => {
      live = false;
    };
  }, [full, current?.part]);

  if (!current) return null;
  const src = full ? (fullSrc?.part === current.part ? fullSrc.url : null) : current.preview_url;

  const choosePart = (p: number) => {
    setPart(p);
    history.replaceState(history.state, '', p > 1 ? `${basePath}/${p}` : basePath);
  };
  const onStart = () => {
    if (counted.current.has(current.part)) return;
    counted.current.add(current.part);
    void storeCall<ViewAnswer>('POST', `videos/view/${video.ccid}/${current.part}`).then((r) => {
      if (r.ok) setViews(r.data.views);
    });
  };
  const onBought = (a: BuyAnswer) => {
    setOwned(true);
    setNotice(a.already ? t('store.buy.already') : a.voucher ? t('store.buy.donePrize') : t('store.buy.done'));
  };

  return (
    <div className="store-clip" data-testid="store-clip" data-owned={full ? '1' : '0'}>
      <VideoPlayer
        videoId={video.id}
        part={current.part}
        parts={video.parts_list.map((p) => p.part)}
        src={src}
        full={full}
        poster={video.poster}
        title={video.title}
        onPart={choosePart}
        onStart={onStart}
      />
      <p className="muted small clip-mode" data-testid="clip-mode">
        {full ? t('store.player.whole') : t('store.player.preview')}
      </p>
      <div className="clip-actions">
        <p className="clip-views muted" data-testid="clip-views">
          {t('store.views', { count: views })}
        </p>
        {full ? (
          <OwnedBox testId="clip-owned" notice={notice} rating={<RatingControl path={`videos/rate/${video.ccid}/${current.part}`} rating={video.rating} votes={video.rating_votes} mine={video.my_rating} />} />
        ) : (
          <BuyBox kind="video" price={video.price} path={`videos/buy/${video.ccid}/${current.part}`} onBought={onBought} />
        )}
      </div>
      <section className="clip-parts" aria-label={t('store.parts')}>
        <h2 className="sr-only">{t('store.parts')}</h2>
        <ol className="part-list">
          {video.parts_list.map((p) => (
            <li key={p.part} className={p.part === current.part ? 'part active' : 'part'}>
              <button type="button" className="part-button" aria-current={p.part === current.part ? 'true' : undefined} onClick={() => choosePart(p.part)} data-testid={`part-${p.part}`}>
                <Icon name="video" size={18} />
                {t('store.part', { part: p.part })}
                <span className="muted small">{formatDuration(p.duration)}</span>
              </button>
              <PartTags tags={video.tags} />
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
