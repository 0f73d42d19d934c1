/** Account flows where the welcome dialog would stand in the way (sign-up, confirming, login…). */
const WELCOME_QUIET = ['/users/signup', '/users/activate', '/users/reset', '/users/cancel', '/verify', '/login', '/logout', '/avs', '/dev'];

function quiet(path: string): boolean {
  // '/users/signup' also covers '/users/signup_success' and '/users/signup/coupon/…'.
  return WELCOME_QUIET.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}_`));
}

/**
 * The welcome dialog greets confirmed members (its free video and voucher need a confirmed
 * address) while session.welcome_dialog still names parts to show, outside the account flows.
 */
export function welcomeWanted(verified: boolean, pending: boolean, path: string): boolean {
  return verified && pending && !quiet(path);
}
