import { useId, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { MESSAGE_BODY_MAX, MESSAGE_ERRORS } from '../../../shared/messages';
import { Icon } from '../../ui/icon';
import { errorText } from '../../ui/error-text';
import { useSnap, useStore, useT } from '../../state/context';
import { sendMessage, type MessagesView } from './messages-store';
import { TIP_CHOICES, tipUnaffordable } from './messages-logic';


/** Errors that mean "not enough coins": the box offers the billing page. */
export function isNoCoins(code: string | null): boolean {
  return code === MESSAGE_ERRORS.noCoins || code === 'no_coins';
}

/** The send box: text, a tip selector for shows (with the member's real balance), Send. */
export function SendBox({ view, withTip: tipsWanted }: { view: MessagesView; withTip: boolean }) {
  const t = useT();
  const snap = useSnap();
  const store = useStore();
  const thread = useSnapshot(view).thread;
  const [body, setBody] = useState('');
  const [tip, setTip] = useState(0);
  const [missing, setMissing] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  // No tips during a phone payment (spec section 5); the server refuses them too.
  const withTip = tipsWanted && !snap.session.voicecall;
  const coins = snap.user?.coins ?? 0;
  const blocked = thread.conversation?.block.memberstatus === 1;
  const short = tipUnaffordable(tip, coins);
  const noCoins = short || isNoCoins(thread.sendError);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = body.trim();
    if (!text) {
      setMissing(true);
      inputRef.current?.focus();
      return;
    }
    if (short || thread.sending || blocked) return;
    setMissing(false);
    setBody('');
    const ok = await sendMessage(view, store, text, withTip ? tip : 0);
    if (ok) setTip(0);
    else setBody((b) => b || text);
    inputRef.current?.focus();
  }

  if (blocked) {
    return (
      <p className="send-blocked" data-testid="send-blocked">
        {t('messages.thread.blocked')}
      </p>
    );
  }
  return (
    <form className="send-box" onSubmit={submit} data-testid="send-box" noValidate>
      <label htmlFor={`${id}-body`} className="visually-hidden">
        {t('messages.send.label')}
      </label>
      <textarea
        ref={inputRef}
        id={`${id}-body`}
        name="body"
        rows={3}
        maxLength={MESSAGE_BODY_MAX}
        value={body}
        placeholder={t('messages.send.placeholder')}
        aria-invalid={missing || undefined}
        aria-describedby={missing ? `${id}-missing` : undefined}
        data-testid="send-body"
        onChange={(e) => {
          setBody(e.target.value);
          if (missing && e.target.value.trim()) setMissing(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
      />
      {missing && (
        <p id={`${id}-missing`} className="field-error" role="alert">
          {t('messages.send.required')}
        </p>
      )}
      <div className="send-row">
        {withTip && (
          <div className="send-tip">
            <label htmlFor={`${id}-tip`}>{t('messages.send.tip')}</label>
            <select id={`${id}-tip`} value={tip} data-testid="send-tip" onChange={(e) => setTip(Number(e.target.value))}>
              {TIP_CHOICES.map((c) => (
                <option key={c} value={c}>
                  {c === 0 ? t('messages.send.noTip') : t('messages.send.tipCoins', { count: c })}
                </option>
              ))}
            </select>
            <span className="send-balance" data-testid="send-balance">
              <Icon name="coins" size={16} />
              {t('messages.send.balance', { count: coins })}
            </span>
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={thread.sending || short} data-testid="send-button">
          {thread.sending ? t('messages.thread.sending') : t('messages.send.button')}
        </button>
      </div>
      {noCoins && (
        <div className="send-error no-coins" role="alert" data-testid="send-no-coins">
          <span>{t('messages.send.noCoins')}</span>
          <a className="btn btn-primary" href="/billing" data-testid="send-buy-coins">
            {t('messages.send.buyCoins')}
          </a>
        </div>
      )}
      {!noCoins && thread.sendError && (
        <p className="send-error" role="alert" data-testid="send-error">
          {t('messages.thread.failed')} {errorText(t, thread.sendError)}
        </p>
      )}
    </form>
  );
}
