import { useEffect, useRef, useState } from 'react';
import { GAME_SEGMENTS, type GameState } from '../../../shared/game';
import { Icon } from '../../ui/icon';
import { api, ApiFailure } from '../../lib/api';
import { useSnap, useT } from '../../state/context';
import { LinkButton } from '../../ui/link-button';

export interface GameWheelProps {
  /** Today's state of the member; null for visitors. */
  state: GameState | null;
  member: boolean;
  verified: boolean;
}

type Phase = 'idle' | 'spinning' | 'done';

/** The turn's length; game.css has the same (4s). */
const SPIN_MS = 4_000;
const SIZE = 300;
const R = SIZE / 2;

function reducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** One slice of the wheel as an SVG path, clockwise from the top. */
function slice(i: number): string {
  const n = GAME_SEGMENTS.length;
  const a0 = (i / n) * 2 * Math.PI - Math.PI / 2;
  const a1 = ((i + 1) / n) * 2 * Math.PI - Math.PI / 2;
  const p = (a: number) => `${(R + R * Math.cos(a)).toFixed(2)} ${(R + R * Math.sin(a)).toFixed(2)}`;
  return `M${R} ${R}L${p(a0)}A${R} ${R} 0 0 1 ${p(a1)}Z`;
}

/**
 * The daily game: a wheel the member spins once per UTC day. The server draws the prize and
 * credits it; the wheel only turns to the segment it names (at once when the visitor prefers
 * reduced motion). A second spin of the day is refused by the server with a clear message.
 */
export default function GameWheel({ state: initial, member, verified }: GameWheelProps) {
  const t = useT();
  const snap = useSnap();
  const [state, setState] = useState<GameState | null>(initial);
  const [phase, setPhase] = useState<Phase>(initial?.spin ? 'done' : 'idle');
  // Where the wheel stands (a segment, or null at the start) and whether it got there by turning.
  // The angles live in game.css as classes (no inline styles: the CSP can forbid them).
  const [stop, setStop] = useState<number | null>(initial?.spin?.segment ?? null);
  const [spun, setSpun] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const spin = state?.spin ?? null;
  const canSpin = member && verified && phase === 'idle';

  async function onSpin() {
    if (!canSpin) return;
    setError(null);
    setPhase('spinning');
    try {
      const res = await api().post<GameState>('game/spin');
      setState({ day: res.day, spin: res.spin, next_at: res.next_at });
      if (!res.spin) return setPhase('done');
      setStop(res.spin.segment);
      if (reducedMotion()) {
        setPhase('done');
      } else {
        setSpun(true);
        timer.current = setTimeout(() => setPhase('done'), SPIN_MS);
      }
    } catch (e) {
      const code = e instanceof ApiFailure ? (e.status === 0 ? 'network_error' : e.message) : 'unknown_error';
      const text = t(`errors.${code}`);
      setError(text === `errors.${code}` ? t('errors.unknown_error') : text);
      if (code === 'game_already_played') {
        // Show the spin this member already made today.
        const current = await api()
          .get<GameState>('game')
          .catch(() => null);
        if (current?.spin) {
          setState(current);
          setStop(current.spin.segment);
        }
        setPhase('done');
      } else {
        setPhase('idle');
      }
    }
  }

  const result = phase === 'done' && spin;
  return (
    <div className="game" data-testid="game" data-phase={phase} data-played={spin ? '1' : '0'}>
      <div className="game-wheel">
        <span className="game-pointer" aria-hidden="true" />
        <svg
          className={`game-disc${spun ? ' is-spun' : ''}`}
          data-stop={stop ?? undefined}
          viewBox={`0 0 ${SIZE} ${SIZE}`}
          width={SIZE}
          height={SIZE}
          role="img"
          aria-label={t('game.wheelLabel', { prizes: GAME_SEGMENTS.map((s) => t('game.segment', { count: s.coins })).join(', ') })}
        >
          {GAME_SEGMENTS.map((s, i) => {
            const mid = ((i + 0.5) / GAME_SEGMENTS.length) * 360;
            return (
              <g key={i} data-segment={i}>
                <path d={slice(i)} className={`game-slice game-slice-${i % 2}`} />
                <text x={R} y={R * 0.28} transform={`rotate(${mid} ${R} ${R})`} textAnchor="middle" className="game-label">
                  {s.coins}
                </text>
              </g>
            );
          })}
          <circle cx={R} cy={R} r={R * 0.14} className="game-hub" />
        </svg>
      </div>

      <div className="game-panel">
        {!member ? (
          <div className="game-visitor" data-testid="game-visitor">
            <p>{t('game.visitor')}</p>
            <div className="game-actions">
              <LinkButton kind="primary" href="/login?redirect=%2Fgame" data-action="game-login">{t('game.login')}</LinkButton>
              <LinkButton kind="outline" href="/users/signup">{t('game.signup')}</LinkButton>
            </div>
          </div>
        ) : !verified ? (
          <p className="form-alert form-alert-error" role="status" data-testid="game-unverified">
            <Icon name="warning" size={18} />
            <span>{t('game.unverified')}</span>
          </p>
        ) : (
          <button type="button" className="btn btn-primary game-spin" onClick={() => void onSpin()} disabled={!canSpin} data-action="game-spin">
            {phase === 'spinning' ? t('game.spinning') : t('game.spin')}
          </button>
        )}

        <div aria-live="polite" className="game-live">
          {result && (
            <div className="game-result" data-testid="game-result" data-coins={spin.coins}>
              <p className="game-won">
                <Icon name="coins" size={22} /> {t('game.won', { count: spin.coins })}
              </p>
              {snap.user && <p className="muted" data-testid="game-balance">{t('game.balance', { count: snap.user.coins })}</p>}
              <p className="muted">{t('game.next')}</p>
            </div>
          )}
        </div>
        {error && (
          <p className="form-alert form-alert-error" role="alert" data-testid="game-error">
            <Icon name="warning" size={18} />
            <span>{error}</span>
          </p>
        )}
      </div>
    </div>
  );
}
