import { formatDuration } from '../../../shared/show-lists';
import { useT } from '../../state/context';
import { Icon } from '../../ui/icon';

/** How much a step of the volume slider (and the arrow keys) changes the volume. */
export const VOLUME_STEP = 0.1;

/** The player's control bar: play/pause, time, seek bar, mute, volume, the part, full screen. */
export function PlayerControls({
  playing,
  disabled,
  time,
  duration,
  volume,
  muted,
  part,
  parts,
  onPointerDown,
  onToggle,
  onSeek,
  onMute,
  onVolume,
  onPart,
  onFullscreen,
}: {
  playing: boolean;
  /** Nothing to play yet (its address loads). */
  disabled: boolean;
  time: number;
  duration: number;
  /** 0 while muted. */
  volume: number;
  muted: boolean;
  part: number;
  parts: number[];
  onPointerDown: () => void;
  onToggle: () => void;
  onSeek: (to: number) => void;
  onMute: () => void;
  onVolume: (volume: number) => void;
  onPart: (part: number) => void;
  onFullscreen: () => void;
}) {
  const t = useT();
  return (
    <div className="player-controls" onPointerDown={onPointerDown}>
      <button type="button" className="player-btn" onClick={onToggle} aria-label={t(playing ? 'store.player.pause' : 'store.player.play')} data-testid="player-toggle" disabled={disabled}>
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <span className="player-time" aria-hidden="true">
        {formatDuration(time)} / {formatDuration(duration)}
      </span>
      <input
        type="range"
        className="player-seek"
        min={0}
        max={duration || 0}
        step={0.1}
        value={Math.min(time, duration || 0)}
        onChange={(e) => onSeek(Number(e.currentTarget.value))}
        aria-label={t('store.player.seek')}
        aria-valuetext={t('store.player.position', { time: formatDuration(time), duration: formatDuration(duration) })}
        data-testid="player-seek"
      />
      <button type="button" className="player-btn" onClick={onMute} aria-label={t(muted ? 'store.player.unmute' : 'store.player.mute')} aria-pressed={muted}>
        <Icon name={volume === 0 ? 'volumeOff' : 'volume'} />
      </button>
      <input
        type="range"
        className="player-volume"
        min={0}
        max={1}
        step={VOLUME_STEP}
        value={volume}
        onChange={(e) => onVolume(Number(e.currentTarget.value))}
        aria-label={t('store.player.volume')}
        aria-valuetext={`${Math.round(volume * 100)} %`}
        data-testid="player-volume"
      />
      {parts.length > 1 && (
        <select className="player-part" value={part} onChange={(e) => onPart(Number(e.currentTarget.value))} aria-label={t('store.player.part')}>
          {parts.map((p) => (
            <option key={p} value={p}>
              {t('store.part', { part: p })}
            </option>
          ))}
        </select>
      )}
      <button type="button" className="player-btn" onClick={onFullscreen} aria-label={t('store.player.fullscreen')}>
        <Icon name="fullscreen" />
      </button>
    </div>
  );
}
