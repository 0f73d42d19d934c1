import { useId, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { CHAT_TEXT_MAX, TIP_AMOUNTS } from '../../../shared/chat';
import { Icon } from '../../ui/icon';
import { useSnap, useStore, useT } from '../../state/context';
import { sendTip } from './chat-actions';
import { useNow } from './chat-parts';
import { sendLine, sendTyping } from './chat-state';
import { LineList, TypingLine } from './line-list';
import { safety } from './chat-safety';
import { ModTools } from './chat-mod-tools';
import { GoalBar, TipMenuList } from './goal-bar';
import { sendMenuTip } from './tips-board';

// The chat panel: the room's lines, who is typing, tips and the input (the show page's overlay and
// the partner frame both show it).

export function ChatPanel() {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const c = useSnapshot(store.chat);
  const mod = useSnapshot(safety);
  const now = useNow(1_000);
  const inputId = useId();
  const [text, setText] = useState('');
  const [tipsOpen, setTipsOpen] = useState(false);
  const [tipError, setTipError] = useState<string | null>(null);

  const live = c.phase === 'live' && c.connected;
  const canSend = live && c.type !== 'voyeur';
  const canTip = !!snap.user && !snap.session.voicecall && !c.answer?.voicecall && c.phase === 'live' && (c.type === 'free' || c.session?.state === 'active');

  function submit(e: FormEvent) {
    e.preventDefault();
    if (sendLine(text)) setText('');
  }

  async function tip(coins: number) {
    setTipError(null);
    const res = await sendTip(store, coins);
    if (res === 'ok') setTipsOpen(false);
    else if (res !== 'busy') setTipError(res);
  }

  /** A tip for an action of the performer's tip menu. */
  async function menuTip(item: number) {
    const sessionId = c.answer?.sessionId;
    if (!sessionId || store.chat.tipBusy) return;
    setTipError(null);
    store.chat.tipBusy = true;
    const res = await sendMenuTip(sessionId, item);
    store.chat.tipBusy = false;
    if (res === 'ok') setTipsOpen(false);
    else setTipError(res);
  }

  return (
    <section className="chat-panel" aria-label={t('chat.panel.label')}>
      <GoalBar goal={c.tips.goal} at={c.tips.at} />
      <LineList items={c.items} me={c.me?.id ?? null} empty="chat.panel.empty" testId="chat-lines" reportShow={c.answer?.showId} tools={mod.moderator ? (l) => <ModTools line={l} /> : undefined} />
      <TypingLine typing={c.typing} now={now} testId="chat-typing" />
      {canTip && tipsOpen && (
        <div className="chat-tips" role="group" aria-label={t('chat.tip.pick')} data-testid="chat-tips">
          <TipMenuList menu={c.tips.menu} busy={c.tipBusy} onTip={(item) => void menuTip(item)} />
          {TIP_AMOUNTS.map((n) => (
            <button key={n} type="button" className="btn btn-outline btn-small" data-tip={n} disabled={c.tipBusy} onClick={() => void tip(n)}>
              <Icon name="coins" size={14} />
              {n}
            </button>
          ))}
        </div>
      )}
      {!canTip && c.tips.menu.length > 0 && (
        // Who cannot tip (a guest, a voice call) still sees what the performer offers.
        <details className="chat-tip-menu-view" data-testid="tip-menu-view">
          <summary>{t('chat.tipMenu.title')}</summary>
          <TipMenuList menu={c.tips.menu} busy={false} />
        </details>
      )}
      {tipError && (
        <p className="chat-tip-error small" role="alert" data-testid="chat-tip-error">
          {t(tipError === 'chat.no_coins' ? 'chat.tip.noCoins' : tipError === 'chat.tip_item_gone' ? 'chat.tipMenu.gone' : 'chat.tip.failed')}{' '}
          {tipError === 'chat.no_coins' && <a href="/billing">{t('chat.buyCoins')}</a>}
        </p>
      )}
      <form className="chat-send" onSubmit={submit}>
        {canTip && (
          <button type="button" className="btn btn-outline chat-tip-toggle" aria-label={t('chat.tip.button')} aria-expanded={tipsOpen} data-testid="chat-tip" onClick={() => setTipsOpen(!tipsOpen)}>
            <Icon name="gift" size={16} />
            <span>{t('chat.tip.button')}</span>
          </button>
        )}
        <label htmlFor={inputId} className="sr-only">
          {t('chat.panel.input')}
        </label>
        <input
          id={inputId}
          className="chat-input"
          data-testid="chat-input"
          maxLength={CHAT_TEXT_MAX}
          autoComplete="off"
          value={text}
          disabled={!canSend}
          placeholder={c.type === 'voyeur' ? t('chat.panel.voyeur') : t('chat.panel.placeholder')}
          onChange={(e) => {
            setText(e.target.value);
            sendTyping();
          }}
        />
        <span className="chat-count muted small" aria-hidden="true">
          {CHAT_TEXT_MAX - text.length}
        </span>
        <button type="submit" className="btn btn-primary" data-testid="chat-send" disabled={!canSend || !text.trim()}>
          {t('chat.panel.send')}
        </button>
      </form>
    </section>
  );
}
