import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useModal } from '../../ui/use-modal';
import { NICKNAME_PATTERN, normalizeName } from '../../../shared/account-rules';
import type { Nickname, User } from '../../../shared/session';
import { closeNicknameDialog } from './profile-actions';
import { NicknameText } from './nickname-text';
import { api } from '../../lib/api';
import { showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { translateFailure } from '../../ui/api-failure';

/** Existing nicknames whose text contains the typed one (case-insensitive), prefix matches first. */
export function filterNicknames(all: readonly Nickname[], typed: string): Nickname[] {
  const q = typed.trim().toLocaleLowerCase();
  if (!q) return [...all];
  const hits = all.filter((n) => n.nickname.toLocaleLowerCase().includes(q));
  const prefix = hits.filter((n) => n.nickname.toLocaleLowerCase().startsWith(q));
  return [...prefix, ...hits.filter((n) => !prefix.includes(n))];
}

/**
 * What submitting does: choose an existing nickname (the exact match, else the first one the
 * filter shows) or save the typed one as new.
 */
export function nicknameIntent(all: readonly Nickname[], typed: string): { kind: 'choose'; nickname: Nickname } | { kind: 'save' } {
  const q = typed.trim().toLocaleLowerCase();
  const exact = all.find((n) => n.nickname.toLocaleLowerCase() === q);
  if (exact) return { kind: 'choose', nickname: exact };
  const matches = q ? filterNicknames(all, typed) : [];
  return matches.length > 0 ? { kind: 'choose', nickname: matches[0] } : { kind: 'save' };
}

/** Pick or create the chat nickname; opened by openNicknameDialog(store). */
export default function NicknameDialog() {
  const store = useStore();
  const snap = useSnap();
  const t = useT();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const open = snap.ui.nicknameDialog;
  const rootRef = useRef<HTMLDivElement>(null);
  const user = snap.user;

  useEffect(() => {
    // Cleared on close, so a reopened dialog never shows the last input for a frame.
    if (!open) {
      setValue('');
      setError(null);
      return;
    }
    inputRef.current?.focus();
  }, [open]);
  useModal(open && !!user, { rootRef, onEscape: () => closeNicknameDialog(store) });

  if (!open || !user) return null;
  const all = user.nicknames.data as Nickname[];
  const shown = filterNicknames(all, value);
  const intent = nicknameIntent(all, value);
  const trimmed = value.trim();

  async function choose(n: Nickname) {
    setBusy(true);
    setError(null);
    try {
      const res = await api().post<{ user: User }>(`user/nickname/activate/${n.id}`);
      store.user = res.user;
      closeNicknameDialog(store);
      showSnackbar(store, t('profile.settings.nicknames.activated', { nickname: n.nickname }));
    } catch (e) {
      setError(translateFailure(t, e, ['nickname']).general);
    } finally {
      setBusy(false);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!trimmed) {
      setError(t('errors.nickname_pattern'));
      return;
    }
    if (intent.kind === 'choose') return choose(intent.nickname);
    if (!NICKNAME_PATTERN.test(normalizeName(trimmed))) {
      setError(t('errors.nickname_pattern'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await api().post<{ user: User }>('user/nickname/add', { nickname: trimmed });
      store.user = res.user;
      closeNicknameDialog(store);
      showSnackbar(store, t('profile.settings.nicknames.activated', { nickname: trimmed }));
    } catch (err) {
      const f = translateFailure(t, err, ['nickname']);
      setError(f.fields.nickname ?? f.general);
    } finally {
      setBusy(false);
    }
  }

  const errId = `${id}-error`;
  return (
    <div ref={rootRef} className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && closeNicknameDialog(store)}>
      <div className="dialog nickname-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('profile.nicknameDialog.title')}</h2>
        <p className="muted small">{t('profile.nicknameDialog.hint')}</p>
        <form onSubmit={submit} noValidate>
          <div className={error ? 'pf-field pf-invalid' : 'pf-field'}>
            <label htmlFor={`${id}-input`}>{t('profile.nicknameDialog.label')}</label>
            <input
              ref={inputRef}
              id={`${id}-input`}
              name="nickname"
              autoComplete="off"
              maxLength={30}
              value={value}
              placeholder={t('profile.nicknameDialog.placeholder')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errId : undefined}
              data-testid="nickname-input"
              onChange={(e) => {
                setValue(e.target.value);
                setError(null);
              }}
            />
            {error && (
              <p className="pf-error" id={errId} role="alert" data-testid="nickname-error">
                {error}
              </p>
            )}
          </div>
          {all.length > 0 && (
            <div className="nick-options">
              <p className="muted small">{t('profile.nicknameDialog.existing')}</p>
              {shown.length === 0 ? (
                <p className="muted small" data-testid="nickname-nomatch">
                  {t('profile.nicknameDialog.noMatch')}
                </p>
              ) : (
                <ul data-testid="nickname-options">
                  {shown.map((n) => (
                    <li key={n.id}>
                      <button
                        type="button"
                        className={n.id === user.nicknames.current_nickname ? 'nick-option current' : 'nick-option'}
                        disabled={busy}
                        data-nickname={n.nickname}
                        onClick={() => choose(n)}
                      >
                        <NicknameText nickname={n.nickname} />
                        {n.id === user.nicknames.current_nickname && <span className="profile-status ok">{t('profile.settings.nicknames.current')}</span>}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn btn-text" onClick={() => closeNicknameDialog(store)}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy} data-action="nickname-submit">
              {t(intent.kind === 'choose' && trimmed ? 'profile.nicknameDialog.choose' : 'profile.nicknameDialog.save')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
