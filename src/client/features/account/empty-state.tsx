import { Icon, type IconName } from '../../ui/icon';

/** A friendly placeholder for a section without content: an icon, a title, a text and one link. */
export function ProfileEmptyState({
  icon,
  title,
  text,
  link,
  testId,
}: {
  icon: IconName;
  title: string;
  text: string;
  link: { href: string; label: string };
  testId?: string;
}) {
  return (
    <div className="profile-empty" data-testid={testId}>
      <div className="profile-empty-icon" aria-hidden="true">
        <Icon name={icon} size={40} />
      </div>
      <h2>{title}</h2>
      <p className="muted">{text}</p>
      <a className="btn btn-primary" href={link.href}>
        {link.label}
      </a>
    </div>
  );
}
