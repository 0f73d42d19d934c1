import { useEffect, useState } from 'react';
import { COUNTER_WEBSITE_ID } from '../../../shared/constants';
import type { Session, User } from '../../../shared/session';
import IncentivePanel from './incentive-panel';
import { api } from '../../lib/api';
import { useLazy, type Loader } from '../../lib/use-lazy';
import { useSnap, useStore } from '../../state/context';
import { welcomeWanted } from './welcome-rule';

// Parts of the Overlays island that exist on every page: session start, counter pixel, visitor
// fingerprint, the visitors' incentive panel, the members' welcome and nickname dialogs. The
// dialogs and the fingerprint code load only when needed.

const loadNicknameDialog: Loader = () => import('../account/nickname-dialog');
const loadWelcomeDialog: Loader = () => import('./welcome-dialog');

/** A visitor without a session row yet gets one now (GET session/init), once per page. */
function SessionInit() {
  const store = useStore();
  useEffect(() => {
    if (store.session.session_id !== null) return;
    const query = Object.fromEntries(new URLSearchParams(location.search));
    api()
      .get<{ session: Session; user: User | null }>('session/init', query)
      .then((res) => {
        store.session = res.session;
        store.user = res.user;
      })
      .catch(() => undefined);
  }, [store]);
  return null;
}

/** The counter pixel, once per page view, after hydration (so the server HTML stays stable). */
function CounterPixel() {
  const snap = useSnap();
  const [src, setSrc] = useState<string | null>(null);
  const sid = snap.session.session_id;
  const mid = snap.user?.id;
  useEffect(() => {
    if (src || !sid) return;
    const q = new URLSearchParams({
      webid: String(snap.session.webid),
      session: sid,
      websiteid: String(COUNTER_WEBSITE_ID),
      noredirect: '1',
      mid: mid ? String(mid) : '',
    });
    setSrc(`/api/pixel.gif?${q.toString()}`);
  }, [src, sid, mid, snap.session.webid]);
  return src ? <img className="counter-pixel" src={src} width={1} height={1} alt="" aria-hidden="true" /> : null;
}

/** Installs the fingerprint click listener (its code loads on the first click). */
function Fingerprint() {
  const store = useStore();
  useEffect(() => {
    let uninstall: (() => void) | null = null;
    let done = false;
    const first = () => {
      document.removeEventListener('click', first, true);
      import('./fingerprint')
        .then(({ installFingerprint }) => {
          if (done) return;
          // The click that loaded the code counts as the first try.
          uninstall = installFingerprint(store, { runNow: true });
        })
        .catch(() => undefined);
    };
    if (!store.session.visitor_id) document.addEventListener('click', first, true);
    return () => {
      done = true;
      document.removeEventListener('click', first, true);
      uninstall?.();
    };
  }, [store]);
  return null;
}

export function SessionOverlays() {
  const snap = useSnap();
  const NicknameDialog = useLazy(loadNicknameDialog, snap.ui.nicknameDialog);
  const WelcomeDialog = useLazy(loadWelcomeDialog, welcomeWanted(snap.user?.is_verified === true, !!snap.session.welcome_dialog, snap.path) && !snap.ui.splashOpen);
  return (
    <>
      <SessionInit />
      <CounterPixel />
      <Fingerprint />
      <IncentivePanel />
      {WelcomeDialog && <WelcomeDialog />}
      {NicknameDialog && <NicknameDialog />}
    </>
  );
}
