import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { CONTEST_LOGIN_HREF, countdownParts, type Contest, type ContestEntry, type ContestVote, type ContestVoteValue } from '../../../shared/contest';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { errorText } from '../../ui/error-text';
import { LinkButton } from '../../ui/link-button';
import { ContestRanking } from './contest-ranking';
import { createContestState, vote } from './contest-state';

export interface ContestBoardProps {
  /** The running round; null renders nothing (the page shows its empty state). */
  contest: Contest | null;
  /** The member's own votes (empty for visitors). */
  votes: ContestVote[];
  member: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The time left, ticking each second on the server's clock (the client's corrected by the answer's `now`). */
function Countdown({ contest, onOver }: { contest: Contest; onOver: () => void }) {
  const t = useT();
  // The first render equals the server's (its clock), so hydration matches; then it ticks.
  const [nowMs, setNowMs] = useState(contest.now * 1000);
  useEffect(() => {
    const skew = contest.now * 1000 - Date.now();
    const tick = () => setNowMs(Date.now() + skew);
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [contest.now]);
  const left = countdownParts(contest.ends_at, nowMs);
  useEffect(() => {
    if (left.over) onOver();
  }, [left.over, onOver]);
  const time = `${pad(left.hours)}:${pad(left.minutes)}:${pad(left.seconds)}`;
  return (
    <p className="contest-countdown" data-testid="contest-countdown" data-ends-at={contest.ends_at}>
      <Icon name="star" size={18} />
      {left.over ? (
        <span>{t('contest.ended')}</span>
      ) : (
        <span>
          {t('contest.endsIn')}{' '}
          <time dateTime={new Date(contest.ends_at * 1000).toISOString()} className="contest-time">
            {left.days > 0 ? t('contest.daysTime', { count: left.days, time }) : time}
          </time>
        </span>
      )}
    </p>
  );
}

/**
 * The running round: countdown, ranking and, for members, an up and a down button per entry that
 * show the member's current vote (aria-pressed). A vote re-ranks at once; visitors see the
 * ranking and a link to log in.
 */
export default function ContestBoard({ contest, votes, member }: ContestBoardProps) {
  const t = useT();
  const [state] = useState(() => createContestState(contest, votes));
  const snap = useSnapshot(state);
  if (!snap.contest) return null;
  const current = snap.contest as Contest;
  const open = !snap.closed;
  // Screen readers hear where the entry stands after the member's vote.
  const announced = snap.lastVoted === null ? null : (current.entries.find((e) => e.id === snap.lastVoted) ?? null);

  const buttons = (e: ContestEntry) => {
    const mine = snap.votes[e.id] ?? 0;
    const busy = snap.pending[e.id] === true;
    const button = (value: ContestVoteValue) => (
      <button
        type="button"
        className={`contest-vote contest-vote-${value === 1 ? 'up' : 'down'}`}
        aria-pressed={mine === value}
        aria-label={t(value === 1 ? 'contest.voteUp' : 'contest.voteDown', { name: e.show.name })}
        title={t(value === 1 ? 'contest.voteUp' : 'contest.voteDown', { name: e.show.name })}
        disabled={!open || busy}
        onClick={() => void vote(state, e.id, value)}
        data-action={`contest-vote-${value === 1 ? 'up' : 'down'}`}
      >
        <span aria-hidden="true">{value === 1 ? '▲' : '▼'}</span>
      </button>
    );
    return (
      <span className="contest-votes" data-my-vote={mine}>
        {button(1)}
        {button(-1)}
      </span>
    );
  };

  return (
    <div className="contest-board" data-testid="contest-board" data-contest-id={current.id} data-open={open ? '1' : '0'}>
      <h2 className="contest-round">{current.title}</h2>
      <Countdown contest={current} onOver={() => void (state.closed = true)} />
      {!member ? (
        <div className="contest-visitor" data-testid="contest-visitor">
          <p>{t('contest.visitor')}</p>
          <LinkButton kind="primary" href={CONTEST_LOGIN_HREF} data-action="contest-login">
            <Icon name="login" size={18} /> {t('contest.login')}
          </LinkButton>
        </div>
      ) : open ? (
        <p className="muted contest-hint">{t('contest.hint')}</p>
      ) : (
        <p className="form-alert" role="status" data-testid="contest-closed">
          <span>{t('contest.closedText')}</span> <a href="/contest/latest">{t('contest.latest.link')}</a>
        </p>
      )}
      {snap.error && (
        <p className="form-alert form-alert-error" role="alert" data-testid="contest-error">
          <Icon name="warning" size={18} />
          <span>{errorText(t, snap.error)}</span>
          {snap.error === 'not_verified' && (
            <>
              {' '}
              <a href="/verify" data-action="contest-verify">
                {t('contest.verify')}
              </a>
            </>
          )}
        </p>
      )}
      <ContestRanking entries={current.entries} actions={member ? buttons : undefined} testId="contest-ranking" />
      <p className="sr-only" aria-live="polite" data-testid="contest-announce">
        {announced ? t('contest.voted', { name: announced.show.name, rank: announced.rank, count: announced.score }) : ''}
      </p>
    </div>
  );
}
