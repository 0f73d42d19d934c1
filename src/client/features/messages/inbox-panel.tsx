import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { MESSAGE_POLL_MS } from '../../../shared/constants';
import { MESSAGE_BODY_MAX } from '../../../shared/messages';
import { useSnap, useStore, useT } from '../../state/context';
import { SupportMember } from './support-member';
import { createInbox, loadList, openThread, refresh, sendReply, setBlocked, type InboxSide } from './inbox-state';

// One inbox (issue 14 point 5): the performer's studio inbox (side studio) or the operator inbox
// (side support). The list shows each member only under the conversation's pseudonym, with the
// unread count, the tips received and the block state; the thread shows the messages with their
// tips and a reply box. A user:mc push of the side (realtime) reloads both at once; a 60 s poll
// stays as the fallback. Stable data-testids: the e2e tests of both engineers use them.

function when(locale: string, unix: number): string {
  if (!unix) return '';
  return new Date(unix * 1000).toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}

export function InboxPanel({ side }: { side: InboxSide }) {
  const t = useT();
  const store = useStore();
  const root = useSnap();
  const [inbox] = useState(() => createInbox(side));
  const s = useSnapshot(inbox);
  const first = useRef(true);
  const pushes = root.inboxPushes;
  const count = side === 'studio' ? root.studioMessagesCount : root.supportMessagesCount;

  useEffect(() => {
    const apply = (n: number | null) => {
      if (n === null) return;
      if (side === 'studio') store.studioMessagesCount = n;
      else store.supportMessagesCount = n;
    };
    void loadList(inbox).then(apply);
    const poll = setInterval(() => void loadList(inbox).then(apply), MESSAGE_POLL_MS);
    return () => clearInterval(poll);
  }, [inbox, side, store]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refresh(inbox);
  }, [pushes, inbox]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void sendReply(inbox);
  };
  const open = s.thread && s.thread.conversation.id === s.openId ? s.thread : null;
  const blocked = open ? open.conversation.block.memberstatus === 1 || open.conversation.block.showstatus === 1 : false;

  return (
    <section className="studio-card inbox" data-testid="inbox" data-side={side} data-unread={count}>
      <div className="studio-card-head">
        <h2>{t(`inbox.title.${side}`)}</h2>
        <span className={count > 0 ? 'inbox-badge' : 'inbox-badge inbox-badge-zero'} data-testid="inbox-unread" aria-label={t('inbox.unread', { count })}>
          {count}
        </span>
      </div>
      {s.load === 'error' && (
        <p className="small" role="alert" data-testid="inbox-error">
          {t('inbox.loadError')}
        </p>
      )}
      <div className="inbox-body">
        <ul className="inbox-list" data-testid="inbox-list">
          {s.list && s.list.data.length === 0 && (
            <li className="muted small" data-testid="inbox-empty">
              {t('inbox.empty')}
            </li>
          )}
          {s.list?.data.map((c) => {
            const isBlocked = c.block.memberstatus === 1 || c.block.showstatus === 1;
            return (
              <li key={c.id}>
                <button
                  type="button"
                  className={`inbox-item${c.id === s.openId ? ' active' : ''}${isBlocked ? ' blocked' : ''}`}
                  data-testid="inbox-item"
                  data-id={c.id}
                  data-unread={c.unread}
                  data-blocked={isBlocked ? '1' : '0'}
                  onClick={() => void openThread(inbox, c.id)}
                >
                  <span className="inbox-item-top">
                    <strong data-testid="inbox-item-pseudo">{c.memberpseudo}</strong>
                    {c.unread > 0 ? (
                      <span className="inbox-badge" data-testid="inbox-item-unread">
                        {c.unread}
                      </span>
                    ) : (
                      <span className="small muted">{when(root.locale, c.messagedate)}</span>
                    )}
                  </span>
                  <span className="inbox-item-body small muted">{c.messagebody}</span>
                  <span className="inbox-item-meta small">
                    {c.tips > 0 && <span data-testid="inbox-item-tips">{t('inbox.tips', { coins: c.tips })}</span>}
                    {isBlocked && <span data-testid="inbox-item-blocked">{t('inbox.blocked')}</span>}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
        <div className="inbox-thread" data-testid="inbox-thread" data-id={open?.conversation.id ?? ''}>
          {!open && <p className="muted small">{t('inbox.pick')}</p>}
          {open && (
            <>
              <div className="inbox-thread-head">
                <strong data-testid="inbox-thread-pseudo">{open.conversation.memberpseudo}</strong>
                {open.conversation.tips > 0 && (
                  <span className="small" data-testid="inbox-thread-tips">
                    {t('inbox.tips', { coins: open.conversation.tips })}
                  </span>
                )}
                {side === 'studio' && (
                  <span data-testid="inbox-block-state" data-blocked={blocked ? '1' : '0'} className="small muted">
                    {open.conversation.block.memberstatus === 1 ? t('inbox.blockedByMember') : open.conversation.block.showstatus === 1 ? t('inbox.blockedByYou') : ''}
                  </span>
                )}
                {side === 'studio' && open.conversation.block.memberstatus === 0 && (
                  <button
                    type="button"
                    className="btn btn-text btn-small"
                    data-testid={open.conversation.block.showstatus === 1 ? 'inbox-unblock' : 'inbox-block'}
                    onClick={() => void setBlocked(inbox, open.conversation.block.showstatus !== 1)}
                  >
                    {open.conversation.block.showstatus === 1 ? t('inbox.unblock') : t('inbox.block')}
                  </button>
                )}
              </div>
              {side === 'support' && open.member && <SupportMember member={open.member} />}
              <ol className="inbox-messages" data-testid="inbox-messages">
                {open.messages.data.map((m) => (
                  <li key={m.messageid} className={`inbox-message ${m.author === 'member' ? 'from-member' : 'from-us'}`} data-testid="inbox-message" data-id={m.messageid} data-author={m.author}>
                    <span className="inbox-message-body">{m.body}</span>
                    {m.tip > 0 && (
                      <span className="inbox-message-tip small" data-testid="inbox-message-tip" data-coins={m.tip}>
                        {t('inbox.tipReceived', { coins: m.tip })}
                      </span>
                    )}
                    <span className="small muted">{when(root.locale, m.time)}</span>
                  </li>
                ))}
              </ol>
              <form className="inbox-reply" onSubmit={submit}>
                <label className="sr-only" htmlFor={`inbox-reply-${side}`}>
                  {t('inbox.replyLabel')}
                </label>
                <textarea
                  id={`inbox-reply-${side}`}
                  data-testid="inbox-reply-input"
                  maxLength={MESSAGE_BODY_MAX}
                  rows={2}
                  value={s.draft}
                  disabled={blocked}
                  placeholder={t('inbox.replyPlaceholder')}
                  onChange={(e) => (inbox.draft = e.target.value)}
                />
                <button type="submit" className="btn btn-primary btn-small" data-testid="inbox-reply-send" disabled={blocked || s.sending || !s.draft.trim()}>
                  {t('inbox.send')}
                </button>
              </form>
            </>
          )}
          {s.error && (
            <p className="small" role="alert" data-testid="inbox-action-error">
              {t('inbox.actionError', { code: s.error })}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
