// The product's business constants (limits, sizes, timings), in one place.
export const DEFAULT_LOCALE = 'en';
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_DAYS = 365;
export const LAYOUT_COOKIE = 'layout';
export const LAYOUT_COOKIE_DAYS = 365;
export const CONSENT_COOKIE = 'consent_analytics';
export const CONSENT_COOKIE_DAYS = 365;
/** The banner's answers as stored in the cookie: accepted, declined. */
export const CONSENT_ANSWERS = ['1', '0'] as const;
export type ConsentAnswer = (typeof CONSENT_ANSWERS)[number];
export const SPLASH_COOKIE = 'splash18';
export const AUTH_COOKIE_PREFIX = 'auth';
export const AUTH_COOKIE_DAYS = 2;
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'X-XSRF-TOKEN';
export const BUILD_HEADER = 'X-Build';
export const REQUEST_ID_HEADER = 'X-Request-Id';

export const SNACKBAR_TIMEOUT_MS = 10_000;
export const HUD_TIMEOUT_MS = 10_000;
export const SAVED_TOAST_MS = 2_000;
export const COPY_CONFIRM_MS = 2_000;

export const VERSION_POLL_MS = 30_000;
export const UPDATE_NOTICE_DELAY_MS = 10_000;
export const UPDATE_NOTICE_POSTPONE_MS = 5 * 60_000;

export const MESSAGE_POLL_MS = 60_000;
export const VOICECALL_CHECK_ACTIVE_MS = 10_000;
export const VOICECALL_CHECK_PENDING_MS = 2_500;

export const INCENTIVE_COUNTDOWN_MS = 900_000;
export const INCENTIVE_OVERTIME_MS = 60_000;
export const INCENTIVE_EXPAND_MS = 2_000;
/** The welcome offer: extra coins on the first paid purchase inside the countdown (and overtime). */
export const WELCOME_BONUS_PERCENT = 20;
/** The coupon code of the welcome offer's free video (granted by the site, never redeemable by code). */
export const WELCOME_VIDEO_CODE = 'WELCOMEVIDEO';

export const QUICKSEARCH_DEBOUNCE_MS = 500;
export const QUICKSEARCH_MIN_CHARS = 3;
export const SEARCH_HISTORY_MAX = 12;

export const VOUCHER_MIN_CHARS = 3;
export const VOUCHER_DEBOUNCE_MS = 1_000;
export const MAILCHECK_DEBOUNCE_MS = 250;

export const ERROR_LOG_MAX = 10;
export const ERROR_LOG_SEND_DELAY_MS = 5_000;
export const FINGERPRINT_MAX_TRIES = 5;
export const CHUNK_RELOAD_MIN_INTERVAL_MS = 60_000;

export const DEFAULT_EXCHANGE_RATE = 0.1;
export const PRIZE_DURATION_SHOWN_DAYS = 14;
/** valid_until from here on (2100-01-01 00:00 UTC) means the voucher does not expire. */
export const COUPON_NO_EXPIRY_AT = 4_102_444_800;

export const TOY_CONTROL_CATEGORY_ID = 20;
export const CATEGORY_BAR_EXTRAS = [1013, 1024, 1051, 1052, 1054, 1062] as const;
export const CATEGORY_BAR_FIRST = 3;
export const SEARCH_CATEGORY_MIN_ID = 1001;
export const ALL_SHOWS_CATEGORY_ID = 0;

export const DIALOG_WIDTH = { register: 640, success: 960, billing: 460, chatAlert: 520, splash: 520 } as const;
export const MESSAGE_POPUP_MIN_WIDTH = 400;
export const NICKNAME_MAX_DISPLAY_PX = 140;
export const POPUP_WINDOW = { width: 870, height: 700 } as const;
export const CONTENT_MAX_WIDTH = 1720;
export const BREAKPOINTS = { sm: 600, md: 960, lg: 1264 } as const;
export const CATEGORY_BAR_MOBILE_BREAKPOINT = 1020;
export const INCENTIVE_PANEL = { width: 400, height: 450, heightNv: 240 } as const;
export const BREADCRUMBS_HEIGHT = 44;
export const GEOLOCATION_MAX_AGE_MS = 10 * 60_000;

export const PAGINATION_LINKS_DESKTOP = 9;
export const PAGINATION_LINKS_MOBILE = 5;
export const SHOWS_PAGE_SIZE = 36;
export const COUNTER_WEBSITE_ID = 19;

// The special drawer item shows until this day (exclusive).
export const SPECIAL_UNTIL = '2024-07-16';

// Request bodies: the most any write may send (JSON or form), answered 413 before parsing.
export const BODY_MAX_BYTES = 64 * 1024;

// Live lobby sockets: the most one session and one client address may hold open at once, and how
// long a reserved slot lives without its shard renewing it (sockets that die without a close event).
// The address cap is generous: many households, offices and mobile carriers share one address.
export const REALTIME_MAX_PER_SESSION = 8;
export const REALTIME_MAX_PER_ADDRESS = 256;
export const REALTIME_SLOT_TTL_S = 600;
export const REALTIME_SLOT_RENEW_MS = 240_000;
