import { useEffect, useState } from 'react';
import { Icon } from '../../ui/icon';
import { useT } from '../../state/context';
import type { ChatItem } from './chat-state';

// Small parts of the chat overlay: a ticking clock and one line of the chat.

export function useNow(ms = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}

export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A room line (as text, never HTML), a tip or a notice of ours. */
export function ChatItemView({ item, meId }: { item: ChatItem; meId: string | null }) {
  const t = useT();
  if (item.kind === 'notice') {
    return <li className="chat-line notice muted small">{t(item.key, item.vars)}</li>;
  }
  if (item.kind === 'tip') {
    return (
      <li className="chat-line tip" data-testid="chat-tip-line">
        <Icon name="gift" size={14} />
        {t('chat.tip.line', { nick: item.nick, count: item.coins })}
      </li>
    );
  }
  const l = item.line;
  const cls = ['chat-line', `from-${l.role}`, l.from === meId ? 'mine' : '', l.to ? 'private' : ''].filter(Boolean).join(' ');
  return (
    <li className={cls} data-testid="chat-line" data-from={l.role}>
      {l.role !== 'system' && <span className="chat-nick">{l.nick}</span>}
      <span className="chat-text">{l.text}</span>
    </li>
  );
}

/** The chat bar's payment fact: paid by the phone call (voice-call mode), or the member's coins left. */
export function PaymentFact({ byCall, coins }: { byCall: boolean; coins: number | null }) {
  const t = useT();
  if (!byCall && coins === null) return null;
  return (
    <div>
      <dt className="sr-only">{t(byCall ? 'chat.bar.paymentLabel' : 'chat.bar.coinsLabel')}</dt>
      {byCall ? (
        <dd data-testid="chat-by-call">
          <Icon name="phone" size={14} />
          {t('chat.bar.byCall')}
        </dd>
      ) : (
        <dd data-testid="chat-coins" data-coins={coins ?? 0}>
          <Icon name="coins" size={14} />
          {coins}
        </dd>
      )}
    </div>
  );
}
