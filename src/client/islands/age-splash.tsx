import { AgeSplash } from '../components/overlays/age-splash';

/** Its own island: rendered (and its code loaded) only while the splash is open. */
export default AgeSplash;
