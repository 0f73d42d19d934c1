import type { OpenContentAppeal } from '../../../shared/restrictions';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import AppealDecision from './appeal-decision.island';
import { ageText } from './reports-page';

// The part of /operator/appeals for appeals against a removed or refused upload (issue 29 point
// 3): oldest first, each with the item (its page and preview, which operators may open while it
// is out of the store), the reasons of the removal, the performer's text and its age, and the
// decision: upheld, or reinstated (back in the store), with the answer the performer is mailed.

export function ContentAppealsSection({ appeals }: { appeals: OpenContentAppeal[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-section" data-testid="content-appeals" aria-labelledby="content-appeals-title">
      <h2 id="content-appeals-title">{t('operator.appeals.content.title')}</h2>
      <p className="muted">{t('operator.appeals.content.lead', { count: appeals.length })}</p>
      {appeals.length === 0 && (
        <p className="empty-state" data-testid="content-appeals-empty">
          {t('operator.appeals.content.empty')}
        </p>
      )}
      {appeals.map((a) => (
        <article key={a.id} className="operator-card" data-testid="content-appeal" data-id={a.id} data-kind={a.kind} data-item={a.item_id}>
          <h3 className="operator-card-title">
            <a href={a.page_url}>{snap.locale === 'de' ? a.title_de : a.title_en}</a>
          </h3>
          <p className="small muted">
            {t(`operator.moderation.kinds.${a.kind}`)} · {a.show_name} · {t('operator.reports.age', { age: ageText(t, a.age) })} ({dateText(a.created_at, snap.locale)})
          </p>
          {a.kind === 'video' ? (
            <video className="moderation-preview" src={a.preview_url} controls muted preload="metadata" />
          ) : (
            <img className="moderation-preview" src={a.preview_url} alt={t('operator.appeals.content.previewAlt')} />
          )}
          <h4 className="small">{t('operator.appeals.content.reasons')}</h4>
          <p className="operator-quote muted" data-testid="content-appeal-reasons">
            {a.decision_reason}
          </p>
          <h4 className="small">{t('operator.appeals.content.text')}</h4>
          <p className="operator-quote" data-testid="content-appeal-text">
            {a.text}
          </p>
          <Island name="AppealDecision" component={AppealDecision} props={{ appealId: a.id, content: true }} />
        </article>
      ))}
    </section>
  );
}
