import { useState } from 'react';
import { LOCALES, type Locale } from '../../../shared/constants';
import type { User } from '../../../shared/session';
import type { TFunction } from '../../../shared/translate';
import type { RootState } from '../../state/store';
import { openNicknameDialog } from './profile-actions';
import { EmailSection, PasswordSection } from './profile-security';
import { NicknameText } from './nickname-text';
import { api } from '../../lib/api';
import { confirmDialog, showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { LinkButton } from '../../ui/link-button';
import { translateFailure } from '../../ui/api-failure';
import { PfSection } from './profile-section';
import { PushSettings } from '../push/push-settings';

/** The settings tab: account data, e-mail, password, newsletter, language, nicknames, deletion. */
export default function ProfileSettings() {
  const snap = useSnap();
  const t = useT();
  const user = snap.user;
  if (!user) return null;
  return (
    <div className="profile-settings">
      <PfSection headingId="pf-account-h" title={t('profile.settings.account.title')}>
        <dl className="pf-data">
          <dt>{t('profile.settings.account.name')}</dt>
          <dd data-testid="account-name">{user.name}</dd>
          <dt>{t('profile.settings.account.email')}</dt>
          <dd data-testid="account-email">
            <span>{user.email}</span>{' '}
            <span className={user.is_verified ? 'profile-status ok' : 'profile-status'}>
              {t(user.is_verified ? 'profile.settings.account.verified' : 'profile.settings.account.unverified')}
            </span>
          </dd>
        </dl>
      </PfSection>
      <NicknamesSection />
      <NewsletterSection />
      <PfSection headingId="pf-push-h" title={t('profile.settings.push.title')}>
        <PushSettings />
      </PfSection>
      <LanguageSection />
      <EmailSection />
      <PasswordSection />
      <PfSection headingId="pf-cancel-h" title={t('profile.settings.cancel.title')} danger>
        <p className="muted">{t('profile.settings.cancel.text')}</p>
        <LinkButton kind="outline" href="/users/cancel" data-action="cancel-account">{t('profile.settings.cancel.link')}</LinkButton>
      </PfSection>
    </div>
  );
}

/** Runs a change of the member, puts the answered member in the store and says `done`, or the error. */
async function updateMember(store: RootState, t: TFunction, call: () => Promise<{ user: User }>, done: (user: User) => string): Promise<void> {
  try {
    const res = await call();
    store.user = res.user;
    showSnackbar(store, done(res.user));
  } catch (e) {
    showSnackbar(store, translateFailure(t, e, []).general ?? t('errors.unknown_error'));
  }
}

function NicknamesSection() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState<number | null>(null);
  const user = snap.user;
  if (!user) return null;
  const { data, current_nickname } = user.nicknames;

  async function activate(id: number, nickname: string) {
    setBusy(id);
    await updateMember(store, t, () => api().post<{ user: User }>(`user/nickname/activate/${id}`), () => t('profile.settings.nicknames.activated', { nickname }));
    setBusy(null);
  }

  async function remove(id: number, nickname: string) {
    const ok = await confirmDialog(store, {
      title: t('profile.settings.nicknames.removeTitle'),
      text: t('profile.settings.nicknames.removeText', { nickname }),
      confirmLabel: t('profile.settings.nicknames.remove'),
    });
    if (!ok) return;
    setBusy(id);
    await updateMember(store, t, () => api().delete<{ user: User }>(`user/nickname/remove/${id}`), () => t('profile.settings.nicknames.removed', { nickname }));
    setBusy(null);
  }

  return (
    <PfSection headingId="pf-nick-h" title={t('profile.settings.nicknames.title')} id="nicknames">
      <p className="muted">{t('profile.settings.nicknames.lead')}</p>
      {data.length === 0 ? (
        <p className="pf-nick-empty" data-testid="nicknames-empty">
          {t('profile.settings.nicknames.empty')}
        </p>
      ) : (
        <ul className="pf-nick-list" data-testid="nickname-list">
          {data.map((n) => {
            const isCurrent = n.id === current_nickname;
            return (
              <li key={n.id} className={isCurrent ? 'pf-nick current' : 'pf-nick'} data-nickname={n.nickname} data-current={isCurrent ? '1' : '0'}>
                <NicknameText nickname={n.nickname} />
                {isCurrent && <span className="profile-status ok">{t('profile.settings.nicknames.current')}</span>}
                <span className="pf-nick-actions">
                  {!isCurrent && (
                    <button type="button" className="btn btn-text" data-action="nick-activate" disabled={busy !== null} onClick={() => activate(n.id, n.nickname)}>
                      {t('profile.settings.nicknames.activate')}
                    </button>
                  )}
                  <button type="button" className="btn btn-text" data-action="nick-remove" disabled={busy !== null} onClick={() => remove(n.id, n.nickname)}>
                    {t('profile.settings.nicknames.remove')}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <button type="button" className="btn btn-primary" data-action="nick-add" onClick={() => openNicknameDialog(store)}>
        {t('profile.settings.nicknames.add')}
      </button>
    </PfSection>
  );
}

function NewsletterSection() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const on = snap.user?.newsletter ?? false;

  async function toggle() {
    if (busy) return;
    setBusy(true);
    await updateMember(store, t, () => api().put<{ user: User }>('user/update_newsletter', { newsletter: !on }), (user) =>
      t(user.newsletter ? 'profile.settings.newsletter.on' : 'profile.settings.newsletter.off'),
    );
    setBusy(false);
  }

  return (
    <PfSection headingId="pf-news-h" title={t('profile.settings.newsletter.title')}>
      <label className="pf-switch">
        <input type="checkbox" role="switch" checked={on} aria-disabled={busy || undefined} onChange={toggle} data-testid="newsletter-toggle" />
        <span className="pf-switch-track" aria-hidden="true" />
        <span>{t('profile.settings.newsletter.label')}</span>
      </label>
    </PfSection>
  );
}

function LanguageSection() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const [busy, setBusy] = useState(false);

  async function change(locale: Locale) {
    if (locale === snap.locale) return;
    setBusy(true);
    try {
      await api().put('user/update', { locale });
      // The page in the new language; ?lang also remembers the choice in the cookie.
      location.assign(`${location.pathname}?lang=${locale}`);
    } catch (e) {
      setBusy(false);
      showSnackbar(store, translateFailure(t, e, []).general ?? t('errors.unknown_error'));
    }
  }

  return (
    <PfSection headingId="pf-lang-h" title={t('profile.settings.language.title')}>
      <div className="pf-field">
        <label htmlFor="pf-locale">{t('profile.settings.language.label')}</label>
        <select id="pf-locale" value={snap.locale} disabled={busy} onChange={(e) => change(e.target.value as Locale)} data-testid="locale-select">
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`languages.${l}`)}
            </option>
          ))}
        </select>
      </div>
    </PfSection>
  );
}
