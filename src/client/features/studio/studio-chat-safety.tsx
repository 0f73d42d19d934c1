import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { BLOCKED_WORD_MAX_CHARS, BLOCKED_WORDS_MAX, MODERATORS_MAX, type ChatSafetySettings } from '../../../shared/chat-safety';
import { api, ApiFailure } from '../../lib/api';
import { useStore, useT } from '../../state/context';
import { fieldCodes } from '../../ui/api-failure';
import { FormError, SubmitButton } from '../../ui/form';

// The studio's chat safety (issue 30 point 4): the show's blocked words (one per line) and its
// moderators, appointed among the regulars. The live room enforces both (room/safety.ts). The
// regulars are read again when members come into the room (a member who starts chatting becomes
// one) and on "Refresh"; an unsaved word list is kept when they are.

/** How long the regulars wait after the room's members changed before they are read again (a burst of joins: one read). */
const REFRESH_AFTER_MS = 1_500;

export function StudioChatSafety() {
  const t = useT();
  const wordsId = useId();
  const modsId = useId();
  const [data, setData] = useState<ChatSafetySettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const [modError, setModError] = useState<string | null>(null);
  const [acting, setActing] = useState<number | null>(null);
  const edited = useRef(false);
  // The room's members (not guests): a new one may have become a regular.
  const members = useSnapshot(useStore().studio).participants.filter((p) => p.role === 'member');
  const membersKey = members.map((p) => p.id).sort().join(',');

  const show = (d: ChatSafetySettings, words = true) => {
    setData(d);
    if (words) {
      setText(d.words.join('\n'));
      edited.current = false;
    }
  };
  const load = () => {
    setFailed(false);
    api()
      .get<ChatSafetySettings>('studio/chat-safety')
      .then((d) => show(d))
      .catch(() => setFailed(true));
  };
  useEffect(load, []);

  const refresh = async () => {
    setRefreshing(true);
    try {
      show(await api().get<ChatSafetySettings>('studio/chat-safety'), !edited.current);
      setModError(null);
    } catch {
      setModError(t('studio.chatSafety.refreshFailed'));
    } finally {
      setRefreshing(false);
    }
  };
  const seenKey = useRef(membersKey);
  useEffect(() => {
    if (!data || membersKey === seenKey.current) return;
    seenKey.current = membersKey;
    const timer = setTimeout(() => void refresh(), REFRESH_AFTER_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [membersKey, data !== null]);

  async function saveWords(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      show(await api().put<ChatSafetySettings>('studio/chat-safety/words', { words: text.split('\n') }));
      setSaved(true);
    } catch (err) {
      const code = fieldCodes(err).words;
      setError(t(code ? `studio.chatSafety.wordErrors.${code}` : 'studio.chatSafety.failed', { max: BLOCKED_WORDS_MAX, chars: BLOCKED_WORD_MAX_CHARS }));
    } finally {
      setBusy(false);
    }
  }

  async function setModerator(id: number, on: boolean) {
    if (acting !== null) return;
    setActing(id);
    setModError(null);
    try {
      show(on ? await api().post<ChatSafetySettings>('studio/chat-safety/moderators', { userId: id }) : await api().delete<ChatSafetySettings>(`studio/chat-safety/moderators/${id}`), !edited.current);
    } catch (err) {
      const tooMany = err instanceof ApiFailure && err.status === 409;
      const gone = fieldCodes(err).userId === 'not_regular' || (err instanceof ApiFailure && err.status === 404);
      setModError(t(tooMany ? 'studio.chatSafety.tooMany' : gone ? 'studio.chatSafety.gone' : 'studio.chatSafety.failed', { max: MODERATORS_MAX }));
      if (gone) void refresh();
    } finally {
      setActing(null);
    }
  }

  return (
    <section className="studio-card studio-chat-safety" data-testid="studio-chat-safety" aria-busy={!data && !failed}>
      <h2>{t('studio.chatSafety.title')}</h2>
      {!data && !failed && (
        <p className="muted small" role="status">
          {t('studio.chatSafety.loading')}
        </p>
      )}
      {failed && (
        <p className="pf-error" role="alert">
          {t('studio.chatSafety.loadFailed')}{' '}
          <button type="button" className="btn btn-text btn-small" onClick={load}>
            {t('studio.chatSafety.retry')}
          </button>
        </p>
      )}
      {data && (
        <>
          <form className="pf-form" onSubmit={saveWords} noValidate data-testid="studio-words-form">
            <div className="field">
              <label htmlFor={wordsId}>{t('studio.chatSafety.words')}</label>
              <div className="field-control">
                <textarea
                  id={wordsId}
                  rows={4}
                  value={text}
                  aria-describedby={`${wordsId}-hint`}
                  data-testid="studio-words"
                  onChange={(e) => {
                    edited.current = true;
                    setSaved(false);
                    setText(e.target.value);
                  }}
                />
              </div>
              <p className="field-hint" id={`${wordsId}-hint`}>
                {t('studio.chatSafety.wordsHint')}
              </p>
            </div>
            <FormError text={error} />
            {saved && (
              <p className="small" role="status" data-testid="studio-words-saved">
                {t('studio.chatSafety.saved')}
              </p>
            )}
            <SubmitButton loading={busy}>{t('studio.chatSafety.save')}</SubmitButton>
          </form>
          <div className="studio-mods-head">
            <h3 id={modsId}>{t('studio.chatSafety.moderators')}</h3>
            <button type="button" className="btn btn-text btn-small" aria-busy={refreshing} data-testid="studio-regulars-refresh" onClick={() => void refresh()}>
              {t(refreshing ? 'studio.chatSafety.refreshing' : 'studio.chatSafety.refresh')}
            </button>
          </div>
          <p className="small muted">{t('studio.chatSafety.moderatorsHint')}</p>
          <p className="small" data-testid="studio-moderators-count">
            {t('studio.chatSafety.count', { n: data.moderators.length, max: MODERATORS_MAX })}
          </p>
          {modError && (
            <p className="form-error small" role="alert" data-testid="studio-moderators-error">
              {modError}
            </p>
          )}
          {data.regulars.length === 0 && <p className="small muted">{t('studio.chatSafety.noRegulars')}</p>}
          <ul className="studio-regulars" data-testid="studio-regulars" aria-labelledby={modsId}>
            {data.regulars.map((r) => (
              <li key={r.id} data-regular={r.nick}>
                <span>{r.nick}</span>
                {r.moderator && <span className="badge small">{t('studio.chatSafety.isModerator')}</span>}
                <button
                  type="button"
                  className="btn btn-outline btn-small"
                  aria-disabled={acting !== null || undefined}
                  aria-label={t(r.moderator ? 'studio.chatSafety.dismissNick' : 'studio.chatSafety.appointNick', { nick: r.nick })}
                  data-action={r.moderator ? 'dismiss' : 'appoint'}
                  onClick={() => void setModerator(r.id, !r.moderator)}
                >
                  {t(r.moderator ? 'studio.chatSafety.dismiss' : 'studio.chatSafety.appoint')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
