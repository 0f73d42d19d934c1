import type { TipGoal, TipMenuItem } from '../../../shared/tips';
import { useSnap, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { clock, useNow } from './chat-parts';

// The tip goal's bar (the viewer's chat and the studio) and the tip menu's actions (the viewer's
// chat): what the room's goal and menu events keep current (tips-board.ts).

/** The current goal: its text, a progress bar, the count and the time left; nothing without a goal. */
export function GoalBar({ goal, at }: { goal: Readonly<TipGoal> | null; at: number }) {
  const t = useT();
  const now = useNow(1_000);
  if (!goal) return null;
  const left = goal.left_ms === null ? null : goal.left_ms - (now - at);
  const state = goal.state === 'open' && left !== null && left <= 0 ? 'expired' : goal.state;
  return (
    <section className={`goal-bar goal-${state}`} aria-label={t('chat.goal.label')} data-testid="goal-bar" data-state={state} data-progress={goal.progress} data-amount={goal.amount}>
      <p className="goal-text">
        <Icon name="gift" size={14} />
        <span>{goal.text}</span>
      </p>
      <progress max={goal.amount} value={Math.min(goal.progress, goal.amount)} aria-label={t('chat.goal.label')} />
      <p className="goal-count small" aria-live="polite" data-testid="goal-count">
        {state === 'reached' ? t('chat.goal.reachedShort', { amount: goal.amount }) : t('chat.goal.count', { progress: goal.progress, amount: goal.amount })}
        {state === 'open' && left !== null && <span className="muted"> · {t('chat.goal.left', { time: clock(left) })}</span>}
        {state === 'expired' && <span className="muted"> · {t('chat.goal.expired')}</span>}
      </p>
    </section>
  );
}

/** The menu's actions as tip buttons (`onTip` absent: shown only, e.g. to guests). */
export function TipMenuList({ menu, busy, onTip }: { menu: readonly Readonly<TipMenuItem>[]; busy: boolean; onTip?: (item: number) => void }) {
  const t = useT();
  const { locale } = useSnap();
  if (menu.length === 0) return null;
  return (
    <ul className="tip-menu" aria-label={t('chat.tipMenu.title')} data-testid="tip-menu">
      {menu.map((i) => (
        <li key={i.id}>
          {onTip ? (
            <button type="button" className="btn btn-outline btn-small tip-menu-item" data-testid="tip-menu-item" data-item={i.id} disabled={busy} onClick={() => onTip(i.id)}>
              <span>{locale === 'de' ? i.de : i.en}</span>
              <span className="tip-menu-price">
                <Icon name="coins" size={14} />
                {i.coins}
              </span>
            </button>
          ) : (
            <span className="tip-menu-item" data-testid="tip-menu-item">
              <span>{locale === 'de' ? i.de : i.en}</span>
              <span className="tip-menu-price">
                <Icon name="coins" size={14} />
                {i.coins}
              </span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
