import type { i18n } from 'i18next';
import type { Locale } from '../shared/constants';
import type { LayoutName } from '../shared/layouts';
import type { Session, User } from '../shared/session';
import type { TFunction } from '../shared/translate';

export interface Bindings {
  DB: D1Database;
  LOBBY: DurableObjectNamespace<import('./realtime/lobby').Lobby>;
  LOBBY_HUB: DurableObjectNamespace<import('./realtime/hub').LobbyHub>;
  /** One live room per show: idFromName(`show-${id}`). */
  ROOM: DurableObjectNamespace<import('./features/chat/room/show-room').ShowRoom>;
  ROOM_SHARD: DurableObjectNamespace<import('./features/chat/room/shard').RoomShard>;
  /** Viewers' sessions per shard of a show's room (default 1,000; fanout.ts). */
  ROOM_SHARD_SIZE?: string;
  /** Length of a billed chat minute in ms (default 60,000; tests and e2e shorten it). */
  CHAT_MINUTE_MS?: string;
  /** How long a member's (or the performer's) room socket may be gone before the session ends / the show goes offline (default 30,000). */
  CHAT_GRACE_MS?: string;
  /** How long an external provider session lives without an extend call (default 30,000). */
  CHAT_EXTERNAL_LEASE_MS?: string;
  /** Signs the room tokens (falls back to SESSION_SECRET / PASSWORD_PEPPER with its own label). */
  ROOM_TOKEN_SECRET?: string;
  /** Lobby shards and the most sockets one shard may hold. */
  LOBBY_SHARDS?: string;
  LOBBY_MAX_SOCKETS?: string;
  /** Override the lobby socket caps per session and per client address (load benches, tests). */
  REALTIME_MAX_PER_SESSION?: string;
  REALTIME_MAX_PER_ADDRESS?: string;
  /** Overrides GUEST_SESSIONS_PER_ADDRESS (the room bench starts 500 guests from one address). */
  CHAT_GUEST_SESSIONS_PER_ADDRESS?: string;
  /** '1' in local development: the hub flips a few shows every few seconds. */
  SIMULATOR?: string;
  /** '1' lets the sandbox payment provider run in production (a staging deploy). */
  ALLOW_SANDBOX_PAYMENTS?: string;
  /** Signs sandbox payment postbacks and checkout references (falls back to the pepper). */
  BILLING_SECRET?: string;
  /** Bearer token for the operator calls under /api/ops. */
  OPS_TOKEN?: string;
  ASSETS: Fetcher;
  /** Store media (videos, previews, posters, gallery pictures); keys in video_parts / gallery_pictures. */
  MEDIA: R2Bucket;
  /** Performer applications' ID documents and selfies: private, read only by the operators' document route. */
  IDDOCS: R2Bucket;
  /** 'development' enables dev-only routes; anything else is production. */
  ENVIRONMENT?: string;
  SUPPORT_EMAIL?: string;
  ABUSE_EMAIL?: string;
  /** Where "leave" on the age splash sends the visitor. */
  SPLASH_EXIT_URL?: string;
  PASSWORD_PEPPER?: string;
  /** Signs the session cookie; falls back to the pepper when unset. */
  SESSION_SECRET?: string;
  /** Transactional mail: HTTP API of the provider; unset means mails are only stored (dev mailbox). */
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  /**
   * Multiplies the per-address limits of anonymous writes and mails (sign-ups, client logs, mails
   * per client address) outside production, where one address stands for many visitors (the
   * end-to-end run). Ignored when ENVIRONMENT is production.
   */
  ADDRESS_LIMIT_FACTOR?: string;
  /** Public origin used in mailed links, e.g. https://www.example.com (default: the request origin). */
  PUBLIC_ORIGIN?: string;
  /** Google Identity Services: OAuth client id, and the JWKS (URL, or inline JSON for tests). */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_JWKS_URL?: string;
  GOOGLE_JWKS_JSON?: string;
  /** Age verification provider: 'sandbox' (default) or a configured provider. */
  AVS_PROVIDER?: string;
  AVS_SECRET?: string;
  /** Peer-to-peer engine: STUN/TURN servers for browsers (JSON RTCIceServer[]); none by default. */
  ICE_SERVERS?: string;
  /** Peer-to-peer engine: '1' runs it relay-only through TURN outside production too (it always does in production). */
  VIDEO_P2P_RELAY_ONLY?: string;
  /** Peer-to-peer engine: viewers one performer's browser sends to (default VIDEO_P2P_MAX_VIEWERS). */
  VIDEO_P2P_MAX_VIEWERS?: string;
  /** Live video engine: 'p2p' (default, no extra service) or 'cloudflare' (Realtime SFU). */
  VIDEO_RELAY?: string;
  /** Cloudflare Realtime HTTPS API base (default in lib/config.ts) and per-call timeout in ms. */
  REALTIME_API_BASE?: string;
  REALTIME_API_TIMEOUT_MS?: string;
  /** Realtime SFU app: its id and secret (secret: a wrangler secret, bearer of every SFU call). */
  REALTIME_APP_ID?: string;
  REALTIME_APP_SECRET?: string;
  /** Realtime TURN key: its id and API token (secret), exchanged for short-lived ICE credentials. */
  TURN_KEY_ID?: string;
  TURN_KEY_API_TOKEN?: string;
  /** Web Push (RFC 8292): the VAPID key pair, base64url (public: 65-byte P-256 point; private: a secret, its 32-byte d), and the operator's contact (mailto: or https:). No push is sent while unset. */
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
  /** Hosts (and their subdomains) a push subscription may name, comma-separated; unset: the browsers' push services (push.service.ts). */
  PUSH_SERVICE_HOSTS?: string;
  /** '1' outside production: the X-Dev-Geo header or dev_geo cookie stands in for request.cf's place (docs/geo-blocking.md). Never in wrangler.toml. */
  DEV_GEO?: string;
}

export interface Variables {
  requestId: string;
  /** Where the request comes from (request.cf, or the development override): middleware/geo.ts. */
  place: import('../shared/geo').GeoPlace;
  /** The ids of the shows hidden from that place (geo-blocking), sorted; asked once per request. */
  hiddenShows: () => Promise<number[]>;
  nonce: string;
  locale: Locale;
  i18n: i18n;
  t: TFunction;
  layout: LayoutName;
  headerHidden: boolean;
  session: Session;
  /** The D1 session row id, null for a visitor without a session yet. */
  sessionId: string | null;
  /** The id in a valid signed session cookie, even before its D1 row exists. */
  cookieSessionId: string | null;
  /** The CSRF token of cookieSessionId, once a page view or a form check computed it (forms without script carry it). */
  csrfToken?: string;
  user: User | null;
  /**
   * The login (auth token) of the member: the session id it began with. Room and lobby sockets
   * carry it, so a logout or a password change ends what that login opened.
   */
  loginId: string | null;
  /** The logged-in member, set by requireUser: read it only in handlers behind that middleware. */
  member: User;
  /** The member is an operator: when this login gave its second factor (null: not yet). */
  operator: { secondFactorAt: number | null } | null;
  /** The member was shown the welcome dialog once (in any session): never again. */
  memberWelcomed?: boolean;
}

export type AppEnv = { Bindings: Bindings; Variables: Variables };
