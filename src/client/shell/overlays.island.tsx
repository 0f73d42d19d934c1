import { useEffect } from 'react';
import { LoadingOverlay } from './loading-overlay';
import { UpdateNotice } from './update-notice';
import { SessionOverlays } from '../features/session/session-overlays';
import { useLazy, type Loader } from '../lib/use-lazy';
import { useSnap, useStore } from '../state/context';

// The snackbar and the confirm dialog load with their first message (both start empty).
const loadSnackbar: Loader = () => import('./snackbar').then((m) => ({ default: m.Snackbar }));
const loadConfirm: Loader = () => import('../ui/confirm-dialog').then((m) => ({ default: m.ConfirmDialog }));

const loadBilling = () => import('../features/billing/billing-overlays');

/** The billing dialogs and voice-call checks, fetched only when a payment is under way. */
function LazyBilling() {
  const store = useStore();
  const snap = useSnap();
  const due =
    snap.ui.billing.dialog !== null || snap.voicecallCheck.mode !== 'off' || snap.session.voicecall || snap.session.phonecall_payment_type_id !== null;
  const Billing = useLazy(loadBilling, due);

  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (e.origin === location.origin) void loadBilling().then((m) => m.onBillingMessage(store, e));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [store]);

  return Billing ? <Billing /> : null;
}

/** Everything that floats above the page, in one island. */
export default function Overlays() {
  const snap = useSnap();
  const Snackbar = useLazy(loadSnackbar, snap.ui.snackbar !== null);
  const ConfirmDialog = useLazy(loadConfirm, snap.ui.confirm !== null);
  return (
    <>
      <UpdateNotice />
      {Snackbar && <Snackbar />}
      {ConfirmDialog && <ConfirmDialog />}
      <LoadingOverlay />
      <LazyBilling />
      <SessionOverlays />
    </>
  );
}
