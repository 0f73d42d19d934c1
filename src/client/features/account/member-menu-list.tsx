import { Icon, type IconName } from '../../ui/icon';
import { isPerformerUser } from '../../../shared/drawer';
import type { User } from '../../../shared/session';
import { useStore, useT } from '../../state/context';

const LOG_OUT = 'M17 7l-1.41 1.41L18.17 11H8v2h10.17l-2.58 2.58L17 17l5-5zM4 5h8V3H4c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h8v-2H4V5z';

/** The member menu's items, loaded when the menu is first opened (or the pointer reaches it). */
export default function MemberMenuList({ user }: { user: User }) {
  const store = useStore();
  const t = useT();
  // A performer's account works the studio; the member's pages (profile, messages, archive) are not theirs.
  const performer = isPerformerUser(user);
  return (
    <div id="member-menu" className="member-menu" data-testid="member-menu" data-performer={performer ? '1' : undefined}>
      <p className="member-menu-name">{user.name}</p>
      <ul>
        {!performer && (
          <>
            <MenuLink href="/users/profile" icon="person" label={t('auth.menu.profile')} />
            <MenuLink href="/messages" testId="menu-messages" icon="mail" label={t('auth.menu.messages')} />
            <MenuLink href="/users/archive" testId="menu-archive" icon="video" label={t('auth.menu.archive')} />
          </>
        )}
        {performer && <MenuLink href="/studio" testId="menu-studio" icon="live" label={t('auth.menu.studio')} />}
        {!user.is_verified && <MenuLink href="/verify" icon="mail" label={t('auth.menu.verify')} />}
        <li>
          {/* The member's own click logs out at once (POST); opened any other way, /logout only asks. */}
          <a
            href="/logout"
            data-action="logout"
            onClick={(e) => {
              e.preventDefault();
              void import('./auth-actions').then((m) => m.logOutAndLeave(store));
            }}
          >
            <svg className="icon" width={18} height={18} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={LOG_OUT} fill="currentColor" />
            </svg>
            <span>{t('auth.menu.logout')}</span>
          </a>
        </li>
      </ul>
    </div>
  );
}

function MenuLink({ href, testId, icon, label }: { href: string; testId?: string; icon: IconName; label: string }) {
  return (
    <li>
      <a href={href} data-testid={testId}>
        <Icon name={icon} size={18} />
        <span>{label}</span>
      </a>
    </li>
  );
}
