// Session and user as the client sees them.
export interface Session {
  webid: number;
  website_id: number;
  session_id: string | null;
  visitor_id: string | null;
  agechecked: boolean;
  splash18_confirmed: boolean;
  voicecall: boolean;
  phonecall_payment_type_id: number | null;
  phonecall_product_id: number | null;
  phonecall_payment_name: string | null;
  sms_coins_disabled: boolean;
  sms_coins_available: boolean;
  redirect_splash: string | null;
  nickname: string | null;
  /** Parts of the welcome dialog still to show; null once it was shown. */
  welcome_dialog: { video: boolean; voucher: boolean } | null;
  incentive_tsp: number | null;
  agent: number | null;
  chatsession_id: string | null;
  host: string | null;
  _date: number | null;
  /** The address just registered on this session (for the sign-up success page). */
  register_email: string | null;
}

export interface Nickname {
  id: number;
  nickname: string;
}

export interface User {
  id: number;
  name: string;
  email: string;
  coins: number;
  is_verified: boolean;
  age_verified: boolean;
  newsletter: boolean;
  nicknames: { data: Nickname[]; current_nickname: number | null };
  /** The show this member performs in (the studio at /studio), else null. */
  performer_show: number | null;
}

export function visitorSession(overrides: Partial<Session> = {}): Session {
  return {
    webid: 19,
    website_id: 19,
    session_id: null,
    visitor_id: null,
    agechecked: false,
    splash18_confirmed: false,
    voicecall: false,
    phonecall_payment_type_id: null,
    phonecall_product_id: null,
    phonecall_payment_name: null,
    sms_coins_disabled: false,
    sms_coins_available: true,
    redirect_splash: null,
    nickname: null,
    welcome_dialog: null,
    incentive_tsp: null,
    agent: null,
    chatsession_id: null,
    host: null,
    _date: null,
    register_email: null,
    ...overrides,
  };
}
