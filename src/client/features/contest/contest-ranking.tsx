import type { ReactNode } from 'react';
import type { ContestEntry } from '../../../shared/contest';
import { showHref } from '../../../shared/shows';
import { useSnap, useT } from '../../state/context';
import { liveOnline } from '../../state/live';

/**
 * The ranking as an ordered list, best first: rank, thumbnail, show name (a link to the show),
 * online state (following the live lobby inside an island), score, and per row what the caller
 * adds (the vote buttons).
 */
export function ContestRanking({ entries, actions, testId }: { entries: readonly ContestEntry[]; actions?: (e: ContestEntry) => ReactNode; testId: string }) {
  const t = useT();
  const snap = useSnap();
  return (
    <ol className="contest-ranking" data-testid={testId} aria-label={t('contest.rankingLabel')}>
      {entries.map((e) => {
        const online = liveOnline(snap.live, e.show.id, e.show.online);
        return (
          <li key={e.id} className="contest-entry" data-entry-id={e.id} data-rank={e.rank} data-score={e.score} data-show-id={e.show.id}>
            <span className={e.rank <= 3 ? `contest-rank contest-rank-${e.rank}` : 'contest-rank'} aria-label={t('contest.rank', { rank: e.rank })}>
              {e.rank}
            </span>
            <img className="contest-thumb" src={e.show.thumbnail} alt="" width={64} height={48} loading="lazy" decoding="async" />
            <span className="contest-show">
              <a href={showHref(e.show)} className="contest-name">
                {e.show.name}
              </a>
              <span className={online ? 'contest-status online' : 'contest-status'}>
                <span className="dot" aria-hidden="true" />
                {online ? t('contest.online') : t('contest.offline')}
              </span>
            </span>
            <span className="contest-score" data-testid="contest-score">
              <strong>{e.score}</strong> <span className="muted">{t('contest.points', { count: Math.abs(e.score) })}</span>
            </span>
            {actions?.(e)}
          </li>
        );
      })}
    </ol>
  );
}
