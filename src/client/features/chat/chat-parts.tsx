import { useEffect, useState, type ReactNode } from 'react';
import { Icon } from '../../ui/icon';
import { useT } from '../../state/context';

// Small parts of the chat overlay: a ticking clock and the chat bar's facts.

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

/** One fact of the chat bar: a label for screen readers and what it says (data: the dd's data-* attributes). */
export function BarFact({ label, testId, data, children }: { label: string; testId: string; data?: Record<`data-${string}`, number>; children: ReactNode }) {
  return (
    <div>
      <dt className="sr-only">{label}</dt>
      <dd data-testid={testId} {...data}>
        {children}
      </dd>
    </div>
  );
}

/** The chat bar's paid minutes. */
export function MinutesFact({ minutes }: { minutes: number }) {
  const t = useT();
  return (
    <BarFact label={t('chat.bar.minutesLabel')} testId="chat-minutes" data={{ 'data-minutes': minutes }}>
      {t('chat.bar.minutes', { count: minutes })}
    </BarFact>
  );
}

/** The chat bar's payment fact: paid by the phone call (voice-call mode), or the member's coins left. */
export function PaymentFact({ byCall, coins }: { byCall: boolean; coins: number | null }) {
  const t = useT();
  if (!byCall && coins === null) return null;
  return byCall ? (
    <BarFact label={t('chat.bar.paymentLabel')} testId="chat-by-call">
      <Icon name="phone" size={14} />
      {t('chat.bar.byCall')}
    </BarFact>
  ) : (
    <BarFact label={t('chat.bar.coinsLabel')} testId="chat-coins" data={{ 'data-coins': coins ?? 0 }}>
      <Icon name="coins" size={14} />
      {coins}
    </BarFact>
  );
}
