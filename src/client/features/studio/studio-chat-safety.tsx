import { useEffect, useId, useState, type FormEvent } from 'react';
import { BLOCKED_WORD_MAX_CHARS, BLOCKED_WORDS_MAX, type ChatSafetySettings } from '../../../shared/chat-safety';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { fieldCodes } from '../../ui/api-failure';
import { FormError, SubmitButton } from '../../ui/form';

// The studio's chat safety (issue 30 point 4): the show's blocked words (one per line) and its
// moderators, appointed among the regulars. The live room enforces both (room/safety.ts).

export function StudioChatSafety() {
  const t = useT();
  const wordsId = useId();
  const [data, setData] = useState<ChatSafetySettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const show = (d: ChatSafetySettings) => {
    setData(d);
    setText(d.words.join('\n'));
  };
  const load = () => {
    setFailed(false);
    api()
      .get<ChatSafetySettings>('studio/chat-safety')
      .then(show)
      .catch(() => setFailed(true));
  };
  useEffect(load, []);

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
    setError(null);
    try {
      setData(on ? await api().post<ChatSafetySettings>('studio/chat-safety/moderators', { userId: id }) : await api().delete<ChatSafetySettings>(`studio/chat-safety/moderators/${id}`));
    } catch {
      setError(t('studio.chatSafety.failed'));
    }
  }

  return (
    <section className="studio-card studio-chat-safety" data-testid="studio-chat-safety" aria-busy={!data && !failed}>
      <h2>{t('studio.chatSafety.title')}</h2>
      {!data && !failed && <p className="muted small">{t('studio.chatSafety.loading')}</p>}
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
              <textarea id={wordsId} rows={4} value={text} aria-describedby={`${wordsId}-hint`} data-testid="studio-words" onChange={(e) => setText(e.target.value)} />
              <p className="field-hint small muted" id={`${wordsId}-hint`}>
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
          <h3>{t('studio.chatSafety.moderators')}</h3>
          <p className="small muted">{t('studio.chatSafety.moderatorsHint')}</p>
          {data.regulars.length === 0 && <p className="small muted">{t('studio.chatSafety.noRegulars')}</p>}
          <ul className="studio-regulars" data-testid="studio-regulars">
            {data.regulars.map((r) => (
              <li key={r.id} data-regular={r.nick}>
                <span>{r.nick}</span>
                {r.moderator && <span className="badge small">{t('studio.chatSafety.isModerator')}</span>}
                <button type="button" className="btn btn-outline btn-small" onClick={() => void setModerator(r.id, !r.moderator)}>
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
