import { OPERATOR_LIVE_PATH } from '../../../shared/moderation';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import ShowWatch from './show-watch.island';

/** /operator/live/{id}/watch: a live show watched unseen, unbilled and without writing (issue 29 point 2). */
export function WatchPage({ id, show }: { id: number; show: { name: string } | null }) {
  const t = useT();
  return (
    <section className="operator-page" data-testid="watch-page">
      <h1>{t('operator.watch.title')}</h1>
      {show ? (
        <>
          <p className="muted">{t('operator.watch.lead', { name: show.name })}</p>
          <Island name="ShowWatch" component={ShowWatch} props={{ showId: id, name: show.name }} />
        </>
      ) : (
        <p className="empty-state" data-testid="watch-offline">
          {t('operator.watch.offline')}
        </p>
      )}
      <p>
        <a href={OPERATOR_LIVE_PATH}>{t('operator.watch.back')}</a>
      </p>
    </section>
  );
}
