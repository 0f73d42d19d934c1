import { OPERATOR_MODERATION_PATH, type ModerationItem } from '../../../shared/moderation';
import { dateText } from '../../lib/date-text';
import { useSnap, useT } from '../../state/context';
import { Island } from '../../ui/island';
import ModerationDecision from './moderation-decision.island';

/** /operator/moderation: complete uploads waiting for review, oldest first, each with its preview and the decision form. */
export function ModerationPage({ items }: { items: ModerationItem[] }) {
  const t = useT();
  const snap = useSnap();
  return (
    <section className="operator-page" data-testid="moderation-page">
      <h1>{t('operator.moderation.title')}</h1>
      <p className="muted">{t('operator.moderation.lead', { count: items.length })}</p>
      {items.length === 0 && (
        <p className="empty-state" data-testid="moderation-empty">
          {t('operator.moderation.empty')}
        </p>
      )}
      {items.map((m) => (
        <article key={`${m.kind}-${m.id}`} className="operator-card" data-testid="moderation-item" data-kind={m.kind} data-id={m.id}>
          <h2 className="operator-card-title">
            <a href={m.page_url}>{snap.locale === 'de' ? m.title_de : m.title_en}</a> <span className="muted small">{dateText(m.created_at, snap.locale)}</span>
          </h2>
          <p className="small">
            {t(`operator.moderation.kinds.${m.kind}`)} · {m.show_name} · {t('operator.moderation.price', { count: m.price })}
          </p>
          {m.kind === 'video' ? (
            <video className="moderation-preview" src={m.preview_url} controls muted preload="metadata" data-testid="moderation-preview" />
          ) : (
            <img className="moderation-preview" src={m.preview_url} alt={t('operator.moderation.previewAlt')} data-testid="moderation-preview" />
          )}
          <Island name="ModerationDecision" component={ModerationDecision} props={{ kind: m.kind, id: m.id }} />
        </article>
      ))}
      <p>
        <a href={OPERATOR_MODERATION_PATH}>{t('operator.moderation.refresh')}</a>
      </p>
    </section>
  );
}
