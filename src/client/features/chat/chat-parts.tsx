import { useEffect, useState } from 'react';
import { Icon } from '../../ui/icon';
import { useT } from '../../state/context';

// Small parts of the chat overlay: a ticking clock and the chat bar's payment fact.

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
