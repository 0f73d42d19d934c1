import { AgeSplash } from '../components/overlays/age-splash';
import { BillingOverlays } from '../components/billing/billing-overlays';
import { ConfirmDialog } from '../components/overlays/confirm-dialog';
import { ConsentBanner } from '../components/overlays/consent-banner';
import { LoadingOverlay } from '../components/overlays/loading-overlay';
import { Snackbar } from '../components/overlays/snackbar';
import { UpdateNotice } from '../components/overlays/update-notice';
import { ProfileOverlays } from '../components/profile/profile-overlays';

/** Everything that floats above the page, in one island so it costs one chunk. */
export default function Overlays() {
  return (
    <>
      <UpdateNotice />
      <ConsentBanner />
      <Snackbar />
      <ConfirmDialog />
      <LoadingOverlay />
      <AgeSplash />
      <BillingOverlays />
      <ProfileOverlays />
    </>
  );
}
