import { useEffect, useState } from 'react';
import { BREAKPOINTS, INCENTIVE_COUNTDOWN_MS, INCENTIVE_EXPAND_MS, INCENTIVE_OVERTIME_MS, INCENTIVE_PANEL } from '../../../shared/constants';
import { Icon } from '../../ui/icon';
import { api } from '../../lib/api';
import { useSnap, useT } from '../../state/context';

interface Offer {
  /** Unix seconds of the first showing on this device's clock (the server keeps the first value). */
  start: number;
  videoId: number | null;
  percent: number;
}

/** Where the panel stays away: account flows and their own sign-up prompts. */
const QUIET_PREFIXES = ['/users/', '/login', '/logout', '/verify', '/avs', '/dev/', '/billing', '/bill'];
const CLOSED_KEY = 'incentive_closed';

export type IncentivePhase = { phase: 'countdown' | 'overtime'; leftMs: number } | { phase: 'over' };

/** Countdown of 15 minutes from the start, then 60 s of overtime, then over. */
export function incentivePhase(startSeconds: number, nowMs: number): IncentivePhase {
  const left = startSeconds * 1000 + INCENTIVE_COUNTDOWN_MS - nowMs;
  if (left > 0) return { phase: 'countdown', leftMs: left };
  if (left + INCENTIVE_OVERTIME_MS > 0) return { phase: 'overtime', leftMs: left + INCENTIVE_OVERTIME_MS };
  return { phase: 'over' };
}

export function formatClock(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

function rememberedClosed(): boolean {
  try {
    return sessionStorage.getItem(CLOSED_KEY) === '1';
  } catch {
    return false;
  }
}

function rememberClosed(): void {
  try {
    sessionStorage.setItem(CLOSED_KEY, '1');
  } catch {
    // storage blocked: it simply expands again on the next page
  }
}

/**
 * The sign-up offer for visitors: a chip that expands into a 400×450 panel (INCENTIVE_PANEL, in
 * profile.css) 2 s after it first
 * shows, counting down 15 minutes (then 60 s of overtime) from the session's first showing.
 * Below 600 px it stays a chip above the bottom navigation until tapped.
 */
export default function IncentivePanel() {
  const snap = useSnap();
  const t = useT();
  const [offer, setOffer] = useState<Offer | null>(null);
  const [expanded, setExpanded] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const quiet = QUIET_PREFIXES.some((p) => (p.endsWith('/') ? snap.path.startsWith(p) : snap.path === p || snap.path.startsWith(`${p}/`)));
  const eligible = !snap.user && !snap.session.voicecall && !quiet && snap.session.session_id !== null;
  const blocked = snap.ui.splashOpen || snap.ui.consentOpen;

  // The first showing fixes the start on the server (later calls get the first value back).
  useEffect(() => {
    if (!eligible || blocked || offer) return;
    let cancelled = false;
    api()
      .post<{ incentive_tsp: number; now?: number; video_id: number | null; voucher_percent: number }>('session/incentive_tsp', {
        incentive_tsp: Math.floor(Date.now() / 1000),
      })
      .then((res) => {
        if (cancelled) return;
        // The start is the server's clock (it decides the welcome offer's window): shown on this
        // device's clock, so a device clock that is off does not show more or less time than is left.
        const clientNow = Date.now();
        const skew = typeof res.now === 'number' ? clientNow / 1000 - res.now : 0;
        setNow(clientNow);
        setOffer({ start: res.incentive_tsp + skew, videoId: res.video_id, percent: res.voucher_percent });
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [eligible, blocked, offer]);

  const state = offer ? incentivePhase(offer.start, now) : null;
  const running = !!offer && state?.phase !== 'over';

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);

  useEffect(() => {
    if (!offer || rememberedClosed() || matchMedia(`(max-width: ${BREAKPOINTS.sm - 0.02}px)`).matches) return;
    const timer = setTimeout(() => setExpanded(true), INCENTIVE_EXPAND_MS);
    return () => clearTimeout(timer);
  }, [offer]);

  if (!offer || !state || state.phase === 'over' || !eligible || blocked) return null;
  const clock = formatClock(state.leftMs);
  const overtime = state.phase === 'overtime';

  function collapse() {
    setExpanded(false);
    rememberClosed();
  }

  if (!expanded) {
    return (
      <button
        type="button"
        className={overtime ? 'incentive-chip overtime' : 'incentive-chip'}
        data-testid="incentive-chip"
        aria-expanded={false}
        onClick={() => setExpanded(true)}
      >
        <Icon name="gift" size={20} />
        <span className="sr-only">{t('incentive.open')} </span>
        <span className="incentive-chip-text">{t('incentive.chip', { percent: offer.percent })}</span>
        <span className="incentive-clock" data-testid="incentive-chip-clock">
          {clock}
        </span>
      </button>
    );
  }

  return (
    <aside
      className={overtime ? 'incentive-panel overtime' : 'incentive-panel'}
      data-testid="incentive-panel"
      aria-labelledby="incentive-title"
    >
      <button type="button" className="icon-btn incentive-close" aria-label={t('incentive.close')} title={t('incentive.close')} onClick={collapse}>
        <Icon name="close" size={20} />
      </button>
      {offer.videoId !== null && (
        <img className="incentive-image" src={`/api/videos/image/${offer.videoId}/1`} alt="" width={INCENTIVE_PANEL.width} height={180} />
      )}
      <div className="incentive-body">
        <p className="incentive-percent" data-testid="incentive-percent">
          {t('incentive.percent', { percent: offer.percent })}
        </p>
        <h2 id="incentive-title">{t('incentive.title')}</h2>
        <p className="muted small">{t('incentive.text', { percent: offer.percent })}</p>
        <p className="incentive-timer">
          <span className="muted small">{t(overtime ? 'incentive.overtime' : 'incentive.endsIn')}</span>
          <span className="incentive-clock" data-testid="incentive-clock" role="timer" aria-live="off">
            {clock}
          </span>
        </p>
        <a className="btn btn-primary incentive-cta" href="/users/signup" data-action="incentive-signup">
          {t('incentive.signup')}
        </a>
      </div>
    </aside>
  );
}
