import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';

// The coin picker while its list loads, and when the list cannot be had (a 503 with a retry).

export function PickerLoading() {
  const t = useT();
  return (
    <div className="billing-picker billing-loading" data-state="loading" aria-busy="true">
      <span className="spinner spinner-22" aria-hidden="true" />
      <span>{t('billing.loading')}</span>
    </div>
  );
}

export function PickerUnavailable({ onRetry }: { onRetry: () => void }) {
  const t = useT();
  return (
    <div className="billing-picker billing-unavailable" data-state="unavailable" data-status="503" role="alert" data-testid="billing-unavailable">
      <Icon name="warning" size={36} />
      <h2>{t('billing.unavailable.title')}</h2>
      <p className="muted">{t('billing.unavailable.text')}</p>
      <button type="button" className="btn btn-primary" data-action="billing-retry" onClick={onRetry}>
        {t('billing.unavailable.retry')}
      </button>
    </div>
  );
}
