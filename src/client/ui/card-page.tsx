import type { ReactNode } from 'react';

/** The centred card every account page sits in (the sign-up success card is 960 px wide). */
export function AuthCard({
  title,
  titleId,
  lead,
  wide,
  page,
  children,
}: {
  title: string;
  titleId?: string;
  lead?: ReactNode;
  wide?: boolean;
  /** data-page, for tests and styles. */
  page: string;
  children: ReactNode;
}) {
  return (
    <section className={wide ? 'auth-page auth-page-wide' : 'auth-page'} data-page={page}>
      <div className="auth-card">
        <h1 id={titleId}>{title}</h1>
        {lead && <p className="auth-lead">{lead}</p>}
        {children}
      </div>
    </section>
  );
}
