import type { BillingList } from './billing';
import type { CouponType } from './coupons';
import type { GameState } from './game';
import type { Session, User } from './session';
import type { Category, GallerySummary, Paged, Promo, SearchAll, ShowDetail, ShowSummary, VideoSummary } from './shows';

// The JSON answer of every /api call, named after its route. The worker's handlers are checked
// against them (`satisfies`) and the client reads them; a later step makes them the OpenAPI
// document. Errors always have the shape { message, errors? } (server/lib/errors.ts).

// ---- session (/api/session)
/** GET init, POST splash18, vid, welcome_shown. */
export interface SessionAnswer {
  session: Session;
  user?: User | null;
}
/** GET splash18. */
export interface SplashAnswer {
  splash18_confirmed: boolean;
}
/** POST incentive_tsp: the welcome countdown's start (server time) and its offer. */
export interface IncentiveAnswer {
  incentive_tsp: number;
  now: number;
  video_id: number | null;
  voucher_percent: number;
  session: Session;
}

// ---- auth (/api/auth), register (/api/register), user (/api/user)
/** POST auth/login, auth/reset, auth/token_login: the member, logged in, and the new session. */
export interface LoginAnswer {
  user: User | null;
  session: Session;
}
/** POST auth/logout, user/cancel. */
export interface LogoutAnswer {
  session: Session;
}
/** GET auth/user; PUT user/update, user/update_newsletter; nickname add, activate, remove. */
export interface UserAnswer {
  user: User | null;
}
/** POST auth/send, user/reset_email. */
export interface SentAnswer {
  sent: true;
}
/** POST register. */
export interface RegisterAnswer extends LoginAnswer {
  email: string;
}
/** POST register/validate, user/email_validate. */
export interface ValidateAnswer {
  status: 'verified' | 'already_verified';
  user: User | null;
  session?: Session;
}
/** GET register/mailcheck. */
export interface MailcheckAnswer {
  suggestion: string | null;
}
/** POST register/coupon. */
export interface CouponCheckAnswer {
  valid: true;
  coupon: { code: string; type: CouponType; value: number; text: string };
}

// ---- shows (/api/shows, /api/tags, /api/categories), search (/api/search)
export type ShowListAnswer = Paged<ShowSummary> & { online: number; more: boolean; category: number; promos: Promo[] };
export interface DataAnswer<T> {
  data: T[];
}
export type ShowDetailAnswer = ShowDetail;
export interface TagItem {
  id: number;
  slug: string;
  name: string;
  count: number;
}
export type CategoryItem = Category & { count: number; online: number; cat: string };
export interface CategoriesAnswer {
  categories: CategoryItem[];
  search_categories: Record<string, CategoryItem>;
}
export type SearchAllAnswer = SearchAll;
export type SearchShowsAnswer = Paged<ShowSummary> & { more: boolean };
export type SearchVideosAnswer = Paged<VideoSummary>;
export type SearchGalleriesAnswer = Paged<GallerySummary>;

// ---- billing (/api/billing), coupons (/api/coupons)
export type BillingListAnswer = BillingList;
/** POST billing/init, billing/init_phonecall: where to pay. */
export interface BillingInitAnswer {
  link: string;
  id: number;
  coins: number;
}
/** GET billing/status/:id. */
export interface BillingStatusAnswer {
  id: number;
  status: string;
  coins: number;
  voucher_coins: number;
  welcome_coins: number;
}
/** GET billing/welcome. */
export interface WelcomeAnswer {
  welcome: { percent: number; starts_at: number; ends_at: number; open: boolean; claimed: boolean } | null;
}
/** GET billing/check_phonecall. */
export interface PhoneCheckAnswer {
  status: 'none' | 'pending' | 'active' | 'ended';
  id: number | null;
  voicecall: boolean;
  session: Session;
}
/** POST billing/end_phonecall. */
export interface PhoneEndAnswer {
  status: 'ended' | 'none';
  id: number | null;
  session: Session;
}
/** POST billing/callback/:provider (the payment provider's postback). */
export interface CallbackAnswer {
  ok: true;
  status: string;
}
/** A coupon with its rules worked out (GET coupons, POST coupons/redeem). */
export interface CouponItem {
  code: string;
  type: CouponType;
  value: number;
  currency: string;
  valid_until: number;
  /** valid_until stands for "no expiry" (2100 and later). */
  no_expiry: boolean;
  valid: boolean;
  text: string;
  money: number | null;
  coins: number | null;
  prize: boolean;
  days_left: number | null;
  redeemed_at: number | null;
  used: boolean;
}
export interface RedeemAnswer {
  coupon: CouponItem;
  user?: { coins: number };
}

// ---- game (/api/game)
export type GameAnswer = GameState;
export type SpinAnswer = GameState & { user: { coins: number } };

// ---- operators (/api/ops)
export interface CoinsAnswer {
  coins: number;
}
export interface ShowStatusAnswer {
  id: number;
  online: boolean;
}
