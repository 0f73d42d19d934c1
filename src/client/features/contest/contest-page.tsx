import type { Contest } from '../../../shared/contest';
import { useSnap, useT } from '../../state/context';
import { EmptyPanel } from '../../ui/empty-panel';
import { Icon } from '../../ui/icon';
import { Island } from '../../ui/island';
import ContestBoard, { type ContestBoardProps } from './contest-board.island';
import { ContestRanking } from './contest-ranking';
import { PageHeader } from '../../ui/page-header';

/** /contest: the running round (an island), or an empty state when none runs or it could not be loaded. */
export function ContestPage({ board, hasLatest }: { board: ContestBoardProps; hasLatest: boolean }) {
  const t = useT();
  const latestLink = hasLatest ? { href: '/contest/latest', label: t('contest.latest.link') } : null;
  return (
    <section className="contest-page" data-testid="contest-page">
      <PageHeader title={t('contest.title')} lead={t('contest.lead')} />
      {board.contest ? (
        <>
          <Island name="ContestBoard" component={ContestBoard} props={board} />
          {latestLink && (
            <p className="contest-more">
              <a href={latestLink.href} data-action="contest-latest">
                {latestLink.label}
              </a>
            </p>
          )}
        </>
      ) : (
        <EmptyPanel icon="star" accent testId="contest-empty" title={t('contest.empty.title')} text={t('contest.empty.text')} link={latestLink} />
      )}
    </section>
  );
}

/** /contest/latest: the final ranking of the last finished round. */
export function ContestLatestPage({ contest }: { contest: Contest | null }) {
  const t = useT();
  const { locale } = useSnap();
  const winner = contest?.entries.find((e) => e.rank === 1) ?? null;
  return (
    <section className="contest-page" data-testid="contest-latest">
      <PageHeader title={t('contest.latest.title')} lead={t('contest.latest.lead')} />
      {contest ? (
        <div className="contest-board" data-contest-id={contest.id}>
          <h2 className="contest-round">{contest.title}</h2>
          <p className="contest-countdown">
            <Icon name="star" size={18} />
            <span>
              {t('contest.latest.endedAt')}{' '}
              <time dateTime={new Date(contest.ends_at * 1000).toISOString()}>
                {new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(contest.ends_at * 1000))}
              </time>
            </span>
          </p>
          {winner && (
            <p className="contest-winner" data-testid="contest-winner">
              {t('contest.latest.winner', { name: winner.show.name, count: winner.score })}
            </p>
          )}
          <ContestRanking entries={contest.entries} testId="contest-final" />
          <p className="contest-more">
            <a href="/contest">{t('contest.latest.back')}</a>
          </p>
        </div>
      ) : (
        <EmptyPanel icon="star" accent testId="contest-empty" title={t('contest.latest.emptyTitle')} text={t('contest.latest.emptyText')} link={{ href: '/contest', label: t('contest.latest.back') }} />
      )}
    </section>
  );
}
