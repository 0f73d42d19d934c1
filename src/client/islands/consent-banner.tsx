import { ConsentBanner } from '../components/overlays/consent-banner';

/** Its own island: rendered (and its code loaded) only until the visitor has answered. */
export default ConsentBanner;
