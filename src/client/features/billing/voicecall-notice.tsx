import { useState } from 'react';
import { useSnap, useStore, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { endVoicecall } from './billing-actions';

/**
 * While the session is in voice-call mode (a phone payment whose call is connected): why the
 * menus are limited, what the member has, and the "End call" control that hangs up server-side.
 * `drawer`: at the top of the limited menu; `bar`: fixed on the page where the drawer is hidden.
 */
export function VoicecallNotice({ variant }: { variant: 'drawer' | 'bar' }) {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!snap.session.voicecall) return null;

  const end = async () => {
    setBusy(true);
    setFailed(false);
    const ok = await endVoicecall(store);
    if (!ok) {
      setBusy(false);
      setFailed(true);
    }
  };

  return (
    <div className={`voicecall-notice voicecall-notice-${variant}`} role="status" data-testid={`voicecall-notice-${variant}`}>
      <p className="voicecall-notice-text">
        <Icon name="phone" size={18} />
        <span>{t('voicecall.notice')}</span>
      </p>
      {snap.user && (
        <p className="billing-balance voicecall-notice-balance">
          <Icon name="coins" size={18} />
          <span data-testid="voicecall-balance">{t('billing.balance', { count: snap.user.coins })}</span>
        </p>
      )}
      <button type="button" className="btn btn-primary voicecall-end" data-action="voicecall-end" disabled={busy} onClick={() => void end()}>
        <Icon name="phone" size={18} />
        <span>{t('voicecall.endCall')}</span>
      </button>
      {failed && (
        <p className="form-alert form-alert-error" role="alert">
          {t('voicecall.endFailed')}
        </p>
      )}
    </div>
  );
}

/** The drawer's lazy chunk (only voice-call sessions download it). */
export default function DrawerVoicecallNotice() {
  return <VoicecallNotice variant="drawer" />;
}
