import type { ReactNode } from 'react';
import { useT } from '../../state/context';

function Blurb({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <li className="blurb">
      <span className="blurb-icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <h3>{title}</h3>
        <p>{text}</p>
      </div>
    </li>
  );
}

const svg = (d: string) => (
  <svg width="28" height="28" viewBox="0 0 24 24" focusable="false">
    <path fill="currentColor" d={d} />
  </svg>
);

const ICONS = {
  freeShow: svg('M21 3H3c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h5v2h8v-2h5c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2zm0 14H3V5h18v12zM9.5 7.5v7l6-3.5z'),
  mobile: svg('M16 1H8C6.34 1 5 2.34 5 4v16c0 1.66 1.34 3 3 3h8c1.66 0 3-1.34 3-3V4c0-1.66-1.34-3-3-3zm-2 20h-4v-1h4v1zm3.25-3H6.75V4h10.5v14z'),
  bonus: svg(
    'M20 6h-2.18c.11-.31.18-.65.18-1a3 3 0 0 0-5.5-1.65l-.5.67-.5-.68A3 3 0 0 0 6 5c0 .35.07.69.18 1H4c-1.11 0-2 .89-2 2v11c0 1.11.89 2 2 2h16c1.11 0 2-.89 2-2V8c0-1.11-.89-2-2-2zm-5-2c.55 0 1 .45 1 1s-.45 1-1 1-1-.45-1-1 .45-1 1-1zM9 4c.55 0 1 .45 1 1s-.45 1-1 1-1-.45-1-1 .45-1 1-1zm11 15H4v-2h16v2zm0-5H4V8h5.08L7 10.83 8.62 12 12 7.4l3.38 4.6L17 10.83 14.92 8H20v6z',
  ),
};

/** /users/signup_success: thanks, the verification hint with the address, Next, three blurbs. */
export function SignupSuccessPage({ email }: { email: string }) {
  const t = useT();
  return (
    <section className="auth-page auth-page-wide" data-page="signup-success">
      <div className="auth-card success-card">
        <div className="success-head">
          <svg className="check-anim" viewBox="0 0 52 52" width="64" height="64" aria-hidden="true">
            <circle className="check-anim-circle" cx="26" cy="26" r="24" fill="none" />
            <path className="check-anim-path" fill="none" d="M14 27l8 8 16-17" />
          </svg>
          <div>
            <h1>{t('auth.success.title')}</h1>
            <p className="success-subtitle">{t('auth.success.subtitle')}</p>
          </div>
        </div>
        <p className="success-text" data-testid="success-text">
          {t('auth.success.text', { email })}
        </p>
        <p className="success-notice">{t('auth.success.notice')}</p>
        <div className="success-actions">
          <a className="btn btn-primary btn-wide" href="/" data-action="next">
            {t('auth.success.next')}
          </a>
        </div>
        <ul className="blurbs">
          <Blurb icon={ICONS.freeShow} title={t('auth.success.blurbs.freeShow.title')} text={t('auth.success.blurbs.freeShow.text')} />
          <Blurb icon={ICONS.mobile} title={t('auth.success.blurbs.mobile.title')} text={t('auth.success.blurbs.mobile.text')} />
          <Blurb icon={ICONS.bonus} title={t('auth.success.blurbs.bonus.title')} text={t('auth.success.blurbs.bonus.text')} />
        </ul>
      </div>
    </section>
  );
}
