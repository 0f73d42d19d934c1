import { useEffect, useRef, useState } from 'react';
import type { Session } from '../../../shared/session';
import { Icon } from '../../ui/icon';
import { useModal } from '../../ui/use-modal';
import { welcomeWanted } from './welcome-rule';
import { api } from '../../lib/api';
import { useSnap, useT } from '../../state/context';

type WelcomeParts = NonNullable<Session['welcome_dialog']>;

/** Records the showing; the API layer applies the answered session (welcome_dialog: null). */
function record(): Promise<boolean> {
  return api()
    .post<{ session: Session }>('session/welcome_shown')
    .then(() => true)
    .catch(() => false);
}

/** GET billing/welcome: the member's welcome offer (window in server time). */
interface WelcomeOffer {
  percent: number;
  starts_at: number;
  ends_at: number;
  open: boolean;
  claimed: boolean;
}

/**
 * Greets a new member once (session.welcome_dialog names the parts to show: the free video and
 * the voucher; see welcomeWanted for where). The first showing is recorded at once with POST
 * session/welcome_shown, so the dialog does not come back on the next page or at the next login,
 * even when it was never closed; it stays open here until closed.
 */
export default function WelcomeDialog() {
  const snap = useSnap();
  const t = useT();
  const okRef = useRef<HTMLButtonElement>(null);
  const [parts, setParts] = useState<WelcomeParts | null>(null);
  const [closed, setClosed] = useState(false);
  const recorded = useRef<Promise<boolean> | null>(null);
  // The offer as the server decides it: its parts show only while it can still be won.
  const [offer, setOffer] = useState<WelcomeOffer | null | undefined>(undefined);
  const wanted = welcomeWanted(snap.user?.is_verified === true, !!snap.session.welcome_dialog, snap.path) && !snap.ui.splashOpen;
  const open = !closed && parts !== null;

  useEffect(() => {
    if (!wanted || parts || closed || !snap.session.welcome_dialog) return;
    // Keep the parts: recording the showing answers a session without them.
    setParts({ ...snap.session.welcome_dialog });
    recorded.current = record();
  }, [wanted, parts, closed, snap.session.welcome_dialog]);

  useEffect(() => {
    if (!open || offer !== undefined) return;
    let cancelled = false;
    api()
      .get<{ welcome: WelcomeOffer | null }>('billing/welcome')
      .then((res) => !cancelled && setOffer(res?.welcome ?? null))
      .catch(() => !cancelled && setOffer(null));
    return () => {
      cancelled = true;
    };
  }, [open, offer]);

  const rootRef = useRef<HTMLDivElement>(null);
  useModal(open && !!parts && offer !== undefined, { rootRef, initialFocusRef: okRef, onEscape: close });

  function close() {
    setClosed(true);
    // Try once more if recording the showing failed (e.g. offline for a moment).
    void recorded.current?.then((ok) => ok || record());
  }

  if (!open || !parts || offer === undefined) return null;
  const live = offer?.open ? offer : null;
  const time = live ? new Intl.DateTimeFormat(snap.locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(live.ends_at * 1000)) : '';
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
      <div className="dialog welcome-dialog" role="dialog" aria-modal="true" aria-labelledby="welcome-title" data-testid="welcome-dialog">
        <div className="welcome-icon" aria-hidden="true">
          <Icon name="star" size={40} />
        </div>
        <h2 id="welcome-title">{t('welcome.title', { name: snap.user?.name ?? '' })}</h2>
        <p>{live ? t('welcome.text', { time }) : t('welcome.textPlain')}</p>
        {live && parts.voucher && (
          <div className="welcome-part" data-part="voucher">
            <Icon name="gift" size={28} />
            <div>
              <h3>{t('welcome.voucher.title')}</h3>
              <p className="muted">{t('welcome.voucher.text', { time, percent: live.percent })}</p>
            </div>
          </div>
        )}
        {live && parts.video && (
          <div className="welcome-part" data-part="video">
            <Icon name="video" size={28} />
            <div>
              <h3>{t('welcome.video.title')}</h3>
              <p className="muted">{t('welcome.video.text')}</p>
            </div>
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-text" onClick={close} data-action="welcome-close">
            {t('common.close')}
          </button>
          {live ? (
            <a className="btn btn-primary" href="/billing" data-action="welcome-buy" onClick={close}>
              {t('welcome.buy')}
            </a>
          ) : null}
          <button ref={okRef} type="button" className={live ? 'btn btn-outline' : 'btn btn-primary'} data-action="welcome-start" onClick={close}>
            {t('welcome.start')}
          </button>
        </div>
      </div>
    </div>
  );
}
