import { useSnap, useT } from '../state/context';
import { Logo } from '../ui/logo';

/** Full-screen loading state with the logo, shown while a slow navigation or action runs. */
export function LoadingOverlay() {
  const snap = useSnap();
  const t = useT();
  if (!snap.ui.loading) return null;
  return (
    <div className="loading-overlay" role="progressbar" aria-label={t('common.loading')} aria-busy="true">
      <div className="loading-logo">
        <Logo size={56} />
      </div>
    </div>
  );
}
