import { OPERATOR_LIVE_PATH, operatorWatchPath, type LiveShow } from '../../../shared/moderation';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import LiveStop from './live-stop.island';

/** /operator/live: the shows online now with their viewers, each with the stop form. */
export function LivePage({ shows }: { shows: LiveShow[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="live-page">
      <h1>{t('operator.live.title')}</h1>
      <p className="muted">{t('operator.live.lead', { count: shows.length })}</p>
      {shows.length === 0 && (
        <p className="empty-state" data-testid="live-empty">
          {t('operator.live.empty')}
        </p>
      )}
      {shows.map((s) => (
        <article key={s.id} className="operator-card" data-testid="live-show" data-id={s.id}>
          <h2 className="operator-card-title">
            <a href={`/chat/${s.id}/${s.slug}`}>{s.name}</a>{' '}
            {s.online_since !== null && <span className="muted small">{t('operator.live.since', { date: dateText(s.online_since, snap.locale) })}</span>}
          </h2>
          <p className="small" data-testid="live-viewers">
            {t('operator.live.viewers', { count: s.viewers })}
          </p>
          <p>
            <a className="btn" href={operatorWatchPath(s.id)} data-testid="live-watch">
              {t('operator.live.watch')}
            </a>
          </p>
          <Island name="LiveStop" component={LiveStop} props={{ showId: s.id }} />
        </article>
      ))}
      <p>
        <a href={OPERATOR_LIVE_PATH}>{t('operator.live.refresh')}</a>
      </p>
    </section>
  );
}
