/** The product logo: a lens mark and the word mark. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <span className="logo">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <circle cx="16" cy="16" r="15" fill="var(--primary)" />
        <circle cx="16" cy="16" r="8.5" fill="none" stroke="var(--on-primary)" strokeWidth="2.5" />
        <circle cx="16" cy="16" r="3.5" fill="var(--on-primary)" />
        <circle cx="24.5" cy="7.5" r="3" fill="var(--accent)" />
      </svg>
      <span className="logo-text">
        Live<b>Cam</b>
      </span>
    </span>
  );
}
