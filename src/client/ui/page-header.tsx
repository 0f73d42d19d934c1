import type { ReactNode } from 'react';

/** The head of a page: its title, a lead line when there is one, then anything else it shows (children). */
export function PageHeader({ title, lead, className, children }: { title: ReactNode; lead?: ReactNode; className?: string; children?: ReactNode }) {
  return (
    <header className={className ? `page-header ${className}` : 'page-header'}>
      <h1>{title}</h1>
      {lead && <p className="muted">{lead}</p>}
      {children}
    </header>
  );
}
