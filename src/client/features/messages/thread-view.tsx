import { Fragment, useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { confirmDialog, showSnackbar } from '../../state/actions';
import { useSnap, useStore, useT } from '../../state/context';
import { PLACEHOLDER_ID, unreadTheirs } from './messages-logic';
import { loadOlder, loadThread, markThreadRead, markThreadUnread, readAll, toggleBlock, type MessagesView } from './messages-store';
import { SendBox } from './send-box';
import { ReportButton } from '../reports/report-dialog';

function when(unixSeconds: number, locale: string): string {
  return new Date(unixSeconds * 1000).toLocaleString(locale, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** A thread: header with actions, the messages (a "New" marker before the first unread), the send box. */
export function ThreadView({ view, headingId }: { view: MessagesView; headingId?: string }) {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const { thread } = useSnapshot(view);
  const endRef = useRef<HTMLDivElement>(null);
  const support = thread.target?.kind === 'support';
  const conv = thread.conversation;
  const name = support || conv?.support ? t('messages.support.title') : (conv?.showprofile?.showname ?? '');
  const count = thread.messages.length;

  // The newest message in view when the thread loads and when one arrives or is sent.
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  async function act(fn: () => Promise<unknown>) {
    try {
      await fn();
    } catch {
      showSnackbar(store, t('messages.error'));
    }
  }

  async function block() {
    if (!conv) return;
    if (conv.block.memberstatus !== 1) {
      const ok = await confirmDialog(store, { title: t('messages.thread.blockTitle', { name }), text: t('messages.thread.blockText'), confirmLabel: t('messages.thread.block') });
      if (!ok) return;
    }
    await act(() => toggleBlock(view, store));
  }

  if (thread.status === 'loading') {
    return (
      <p className="messages-state" role="status" data-testid="thread-loading">
        <span className="spinner" aria-hidden="true" /> {t('messages.loading')}
      </p>
    );
  }
  if (thread.status === 'notfound') {
    return (
      <p className="messages-state" role="alert" data-testid="thread-notfound">
        {t('messages.thread.notFound')}
      </p>
    );
  }
  if (thread.status === 'error') {
    return (
      <div className="messages-state" role="alert" data-testid="thread-error">
        <p>{t('messages.error')}</p>
        <button type="button" className="btn btn-outline" onClick={() => void loadThread(view, store)}>
          {t('messages.retry')}
        </button>
      </div>
    );
  }
  const blocked = conv?.block.memberstatus === 1;
  return (
    <section className={blocked ? 'thread blocked' : 'thread'} aria-labelledby={headingId ?? 'thread-title'} data-testid="thread" data-blocked={blocked ? '1' : '0'}>
      <header className="thread-head">
        <h2 id={headingId ?? 'thread-title'}>{name}</h2>
        {conv && conv.id > 0 && !support && !conv.support && (
          <div className="thread-actions">
            {unreadTheirs(thread.messages).length > 0 ? (
              <button type="button" className="btn btn-text" data-action="mark-read" onClick={() => void act(() => markThreadRead(view, store))}>
                {t('messages.thread.markRead')}
              </button>
            ) : (
              <button type="button" className="btn btn-text" data-action="mark-unread" onClick={() => void act(() => markThreadUnread(view, store))}>
                {t('messages.thread.markUnread')}
              </button>
            )}
            <button type="button" className="btn btn-text" data-action="read-all" onClick={() => void act(async () => {
              await readAll(view, store);
              showSnackbar(store, t('messages.thread.readAllDone'));
            })}>
              {t('messages.thread.readAll')}
            </button>
            <button type="button" className="btn btn-text" data-action={blocked ? 'unblock' : 'block'} disabled={thread.busy} onClick={() => void block()}>
              {blocked ? t('messages.thread.unblock') : t('messages.thread.block')}
            </button>
          </div>
        )}
      </header>
      <div className="thread-messages" aria-live="polite" data-testid="thread-messages">
        {thread.page < thread.last_page && (
          <button type="button" className="btn btn-text thread-older" disabled={thread.busy} onClick={() => void loadOlder(view)}>
            {t('messages.thread.older')}
          </button>
        )}
        {count === 0 && <p className="messages-state">{t('messages.thread.empty')}</p>}
        <ol className="message-list">
          {thread.messages.map((m) => {
            const mine = m.author === 'member';
            const pending = m.messageid === PLACEHOLDER_ID;
            return (
              <Fragment key={m.messageid}>
                {thread.newMarker === m.messageid && (
                  <li className="new-marker" data-testid="new-marker">
                    <span>{t('messages.thread.newMarker')}</span>
                  </li>
                )}
                <li
                  className={['message', mine ? 'mine' : 'theirs', pending && 'pending', m.unread && !mine && 'unread'].filter(Boolean).join(' ')}
                  data-testid="message"
                  data-message-id={m.messageid}
                  data-unread={m.unread ? '1' : '0'}
                >
                  <span className="message-author">{mine ? t('messages.thread.you') : name}</span>
                  <p className="message-body">{m.body}</p>
                  {m.tip > 0 && <span className="message-tip">{t('messages.thread.tip', { count: m.tip })}</span>}
                  <span className="message-time">
                    {pending ? t('messages.thread.sending') : <time dateTime={new Date(m.time * 1000).toISOString()}>{when(m.time, snap.locale)}</time>}
                    {m.unread === 1 && !mine && <span className="message-unread"> · {t('messages.thread.unreadBadge')}</span>}
                  </span>
                  {!mine && !pending && !support && <ReportButton compact kind="message" targetId={String(m.messageid)} quote={m.body} />}
                </li>
              </Fragment>
            );
          })}
        </ol>
        <div ref={endRef} />
      </div>
      <SendBox view={view} withTip={!support} />
    </section>
  );
}
