import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { TIP_MENU_MAX, TIP_TEXT_MAX, type TipsView } from '../../../shared/tips';
import { api } from '../../lib/api';
import { useStore, useT } from '../../state/context';
import { fieldCodes } from '../../ui/api-failure';
import { Field, FormError } from '../../ui/form';
import { GoalBar } from '../chat/goal-bar';

// The performer's tip menu and goal (issue 30 points 1 and 2): the actions with a price and an
// English and a German text, saved as a whole; a goal (amount, text, optional time limit) that a new
// one replaces, and its bar as the viewers see it. The room tells every open chat at once.

interface Row {
  coins: string;
  en: string;
  de: string;
}

const asNumber = (v: string): number | string => (/^\s*\d+\s*$/.test(v) ? Number(v) : v);

export function StudioTips() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const board = useStore().studio.tips;
  const [rows, setRows] = useState<Row[] | null>(null);
  const [menuErrors, setMenuErrors] = useState<Record<string, string>>({});
  const [menuState, setMenuState] = useState<'idle' | 'busy' | 'saved' | 'failed'>('idle');
  const [goal, setGoal] = useState({ amount: '', text: '', minutes: '' });
  const [goalErrors, setGoalErrors] = useState<Record<string, string>>({});
  const [goalBusy, setGoalBusy] = useState(false);
  const [goalFailed, setGoalFailed] = useState(false);
  // Keyboard focus stays in the card when the control pressed goes away (a removed row, the ended goal).
  // A busy button is aria-disabled, not disabled: Chromium moves the focus of a button that becomes
  // disabled to the page's body, and it does not come back when the button is enabled again.
  const cardRef = useRef<HTMLElement>(null);
  const focusSoon = (selector: string) => requestAnimationFrame(() => cardRef.current?.querySelector<HTMLElement>(selector)?.focus());

  // The editor starts from the saved menu once it has loaded.
  useEffect(() => {
    if (rows === null && s.tips.loaded) setRows(s.tips.menu.map((i) => ({ coins: String(i.coins), en: i.en, de: i.de })));
  }, [rows, s.tips.loaded, s.tips.menu]);

  const apply = (v: TipsView) => {
    board.menu = v.menu;
    board.goal = v.goal;
    board.at = Date.now();
    board.loaded = true;
  };
  const translate = (codes: Record<string, string>) => Object.fromEntries(Object.entries(codes).map(([k, c]) => [k, t(`errors.${c}`)]));

  async function saveMenu(e: FormEvent) {
    e.preventDefault();
    if (menuState === 'busy') return;
    setMenuState('busy');
    setMenuErrors({});
    try {
      apply(await api().put<TipsView>('chat/tips/studio/menu', { items: (rows ?? []).map((r) => ({ coins: asNumber(r.coins), en: r.en, de: r.de })) }));
      setMenuState('saved');
    } catch (err) {
      const codes = fieldCodes(err);
      setMenuErrors(translate(codes));
      setMenuState(Object.keys(codes).length ? 'idle' : 'failed');
    }
  }

  async function startGoal(e: FormEvent) {
    e.preventDefault();
    if (goalBusy) return;
    setGoalBusy(true);
    setGoalErrors({});
    setGoalFailed(false);
    try {
      const minutes = goal.minutes.trim() === '' ? null : asNumber(goal.minutes);
      apply(await api().post<TipsView>('chat/tips/studio/goal', { amount: asNumber(goal.amount), text: goal.text, minutes }));
      setGoal({ amount: '', text: '', minutes: '' });
    } catch (err) {
      const codes = fieldCodes(err);
      setGoalErrors(translate(codes));
      setGoalFailed(Object.keys(codes).length === 0);
    } finally {
      setGoalBusy(false);
    }
  }

  async function endGoal() {
    if (goalBusy) return;
    setGoalBusy(true);
    try {
      apply(await api().delete<TipsView>('chat/tips/studio/goal'));
      focusSoon('#studio-goal-amount');
    } catch {
      setGoalFailed(true);
    } finally {
      setGoalBusy(false);
    }
  }

  const set = (i: number, patch: Partial<Row>) => {
    setRows((rs) => (rs ?? []).map((r, k) => (k === i ? { ...r, ...patch } : r)));
    setMenuState('idle');
  };
  const list = rows ?? [];

  return (
    <section className="studio-card studio-tips" data-testid="studio-tips" aria-busy={!s.tips.loaded} ref={cardRef}>
      <h2>{t('studio.tips.goalTitle')}</h2>
      {s.tips.goal ? <GoalBar goal={s.tips.goal} at={s.tips.at} /> : <p className="muted small">{t('studio.tips.noGoal')}</p>}
      <form className="pf-form studio-goal-form" onSubmit={startGoal} noValidate>
        <Field id="studio-goal-amount" name="amount" label={t('studio.tips.amount')} inputMode="numeric" value={goal.amount} error={goalErrors.amount} onChange={(e) => setGoal({ ...goal, amount: e.target.value })} />
        <Field id="studio-goal-text" name="text" label={t('studio.tips.goalText')} maxLength={TIP_TEXT_MAX} value={goal.text} error={goalErrors.text} onChange={(e) => setGoal({ ...goal, text: e.target.value })} />
        <Field id="studio-goal-minutes" name="minutes" label={t('studio.tips.minutes')} optionalLabel={t('studio.tips.optional')} inputMode="numeric" value={goal.minutes} error={goalErrors.minutes} onChange={(e) => setGoal({ ...goal, minutes: e.target.value })} />
        <FormError text={goalFailed ? t('studio.tips.failed') : null} />
        <div className="studio-tips-actions">
          <button type="submit" className="btn btn-primary" aria-disabled={goalBusy || undefined} data-action="studio-goal-start">
            {s.tips.goal ? t('studio.tips.newGoal') : t('studio.tips.startGoal')}
          </button>
          {s.tips.goal && (
            <button type="button" className="btn btn-outline" aria-disabled={goalBusy || undefined} data-action="studio-goal-end" onClick={() => void endGoal()}>
              {t('studio.tips.endGoal')}
            </button>
          )}
        </div>
      </form>
      <h2>{t('studio.tips.menuTitle')}</h2>
      <form className="pf-form studio-menu-form" onSubmit={saveMenu} noValidate data-testid="studio-menu-form">
        {list.length === 0 && <p className="muted small">{t('studio.tips.emptyMenu')}</p>}
        <ol className="studio-menu-rows">
          {list.map((r, i) => (
            <li key={i} className="studio-menu-row" data-testid="studio-menu-row">
              <Field id={`studio-menu-${i}-coins`} name="coins" label={t('studio.tips.price')} inputMode="numeric" value={r.coins} error={menuErrors[`items.${i}.coins`]} onChange={(e) => set(i, { coins: e.target.value })} />
              <Field id={`studio-menu-${i}-en`} name="en" label={t('studio.tips.textEn')} maxLength={TIP_TEXT_MAX} value={r.en} error={menuErrors[`items.${i}.en`]} onChange={(e) => set(i, { en: e.target.value })} />
              <Field id={`studio-menu-${i}-de`} name="de" label={t('studio.tips.textDe')} maxLength={TIP_TEXT_MAX} value={r.de} error={menuErrors[`items.${i}.de`]} onChange={(e) => set(i, { de: e.target.value })} />
              <button
                type="button"
                className="btn btn-text"
                onClick={() => {
                  setRows(list.filter((_, k) => k !== i));
                  setMenuState('idle');
                  // The row that took its place (or the one before), else "Add action".
                  focusSoon(list.length > 1 ? `#studio-menu-${Math.min(i, list.length - 2)}-coins` : '[data-action=studio-menu-add]');
                }}
                aria-label={t('studio.tips.remove', { n: i + 1 })}>
                {t('studio.tips.removeShort')}
              </button>
            </li>
          ))}
        </ol>
        <FormError text={menuErrors.items ?? (menuState === 'failed' ? t('studio.tips.failed') : null)} />
        <div className="studio-tips-actions">
          <button type="button" className="btn btn-outline" disabled={list.length >= TIP_MENU_MAX} data-action="studio-menu-add" onClick={() => {
              setRows([...list, { coins: '', en: '', de: '' }]);
              setMenuState('idle');
              focusSoon(`#studio-menu-${list.length}-coins`);
            }}
          >
            {t('studio.tips.add')}
          </button>
          <button type="submit" className="btn btn-primary" aria-disabled={menuState === 'busy' || undefined} data-action="studio-menu-save">
            {t('studio.tips.save')}
          </button>
          {menuState === 'saved' && (
            <span className="small" role="status" data-testid="studio-menu-saved">
              {t('studio.tips.saved')}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
