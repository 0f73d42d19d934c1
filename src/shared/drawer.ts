import { SPECIAL_UNTIL } from './constants';
import type { Session, User } from './session';

export type DrawerItemKey =
  | 'home'
  | 'allShows'
  | 'categories'
  | 'search'
  | 'freeshow'
  | 'freevideo'
  | 'game'
  | 'contest'
  | 'special'
  | 'freeCoins'
  | 'charge'
  | 'studio'
  | 'voicecall'
  | 'faq'
  | 'contact';

export interface DrawerItem {
  key: DrawerItemKey;
  href: string;
}

const VOICECALL_MENU: DrawerItemKey[] = ['home', 'allShows', 'categories', 'search', 'faq', 'contact'];

/** The drawer's items and their visibility rules. */
export function drawerItems(session: Session, user: User | null, now: Date): DrawerItem[] {
  const loggedIn = user !== null;
  const voicecall = session.voicecall;
  const showFreeCoins =
    !session.sms_coins_disabled && !voicecall && !(loggedIn && !session.sms_coins_available);
  const hasPhoneFields =
    session.phonecall_payment_type_id !== null &&
    session.phonecall_product_id !== null &&
    !!session.phonecall_payment_name;
  const items: (DrawerItem | false)[] = [
    { key: 'home', href: '/' },
    { key: 'allShows', href: '/shows/all-shows' },
    { key: 'categories', href: '/shows/categories' },
    { key: 'search', href: '/search' },
    { key: 'freeshow', href: '/freeshow' },
    { key: 'freevideo', href: '/freevideo' },
    { key: 'game', href: '/game' },
    { key: 'contest', href: '/contest' },
    now.toISOString().slice(0, 10) < SPECIAL_UNTIL && { key: 'special', href: '/special' },
    showFreeCoins && { key: 'freeCoins', href: '/users/free_coins' },
    loggedIn && !voicecall && { key: 'charge', href: '/billing' },
    loggedIn && !voicecall && isPerformerUser(user) && { key: 'studio', href: '/studio' },
    hasPhoneFields &&
      !voicecall && {
        key: 'voicecall',
        // Age must be checked before a voice call can start.
        href: session.agechecked ? '/billing?voicecall=1' : `/avs?target=${encodeURIComponent('/billing?voicecall=1')}`,
      },
    { key: 'faq', href: '/faq' },
    { key: 'contact', href: '/contact' },
  ];
  const visible = items.filter((i): i is DrawerItem => i !== false);
  return voicecall ? visible.filter((i) => VOICECALL_MENU.includes(i.key)) : visible;
}

/** A member linked to a show (a performer): the studio is theirs. */
export function isPerformerUser(user: User | null): boolean {
  const show = (user as { performer_show?: unknown } | null)?.performer_show;
  return typeof show === 'number' ? show > 0 : !!show;
}
