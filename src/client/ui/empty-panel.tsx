import { Icon, type IconName } from './icon';

/** A friendly placeholder for a section without content: an icon, a title, a text and at most one link. */
export function EmptyPanel({
  icon,
  title,
  text,
  link,
  testId,
  accent = false,
}: {
  icon: IconName;
  title: string;
  text: string;
  link: { href: string; label: string } | null;
  testId: string;
  /** The icon in the accent colour instead of the primary one. */
  accent?: boolean;
}) {
  return (
    <div className="empty-panel" data-testid={testId}>
      <div className={accent ? 'empty-panel-icon accent' : 'empty-panel-icon'} aria-hidden="true">
        <Icon name={icon} size={40} />
      </div>
      <h2>{title}</h2>
      <p className="muted">{text}</p>
      {link && (
        <a className="btn btn-primary" href={link.href}>
          {link.label}
        </a>
      )}
    </div>
  );
}
