import { useSnap } from '../state/context';

/**
 * The session's CSRF token as a hidden field, for forms the browser posts itself when no script
 * runs (the server checks it like the X-XSRF-TOKEN header). With script the form goes through the API.
 */
export function CsrfField() {
  const snap = useSnap();
  return <input type="hidden" name="_token" value={snap.config.csrfToken} />;
}
