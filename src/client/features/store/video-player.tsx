import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useSnap, useStore, useT } from '../../state/context';
import { positionKey, rememberPosition, restorePlayer } from './player-storage';
import { Icon } from '../../ui/icon';
import { PlayerControls, VOLUME_STEP } from './player-controls';

export interface PlayerProps {
  videoId: number;
  part: number;
  parts: number[];
  /** What plays: the preview, or the whole part once bought (null while its address loads). */
  src: string | null;
  full: boolean;
  poster: string;
  title: string;
  onPart: (part: number) => void;
  /** Playback started (the view is counted once by the caller). */
  onStart: () => void;
}

const SEEK_STEP = 5;
const HIDE_CONTROLS_MS = 3_000;
const SAVE_EVERY_S = 2;

/**
 * The store's video player: a plain <video playsinline> with its own controls (buttons with
 * labels, the seek bar and volume as sliders), keyboard keys on the player (Space/k, arrows, m, f)
 * and touch (a tap shows the controls). Volume, mute and each part's position are kept in the
 * persisted player state.
 */
export function VideoPlayer({ videoId, part, parts, src, full, poster, title, onPart, onStart }: PlayerProps) {
  const t = useT();
  const store = useStore();
  const snap = useSnap();
  const rootRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle');
  const [controls, setControls] = useState(true);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastSaved = useRef(0);
  const key = positionKey(videoId, part, full);

  useEffect(() => restorePlayer(store), [store]);

  useEffect(() => {
    const v = videoRef.current;
    if (!v) return;
    v.volume = snap.player.volume;
    v.muted = snap.player.muted;
  }, [snap.player.volume, snap.player.muted, src]);

  useEffect(() => {
    setTime(0);
    setPlaying(false);
    setStatus(src ? 'idle' : 'loading');
  }, [src]);

  const showControls = () => {
    setControls(true);
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => {
      if (videoRef.current && !videoRef.current.paused) setControls(false);
    }, HIDE_CONTROLS_MS);
  };
  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const toggle = () => {
    const v = videoRef.current;
    if (!v || !src) return;
    if (v.paused) void v.play().catch(() => undefined);
    else v.pause();
    showControls();
  };
  const seek = (to: number) => {
    const v = videoRef.current;
    if (!v || !Number.isFinite(v.duration)) return;
    v.currentTime = Math.min(Math.max(0, to), v.duration);
    setTime(v.currentTime);
    showControls();
  };
  const setVolume = (volume: number) => {
    store.player.volume = Math.min(1, Math.max(0, Math.round(volume * 100) / 100));
    store.player.muted = store.player.volume === 0;
  };
  const toggleMute = () => (store.player.muted = !store.player.muted);
  const fullscreen = () => {
    const el = rootRef.current;
    if (!el) return;
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void el.requestFullscreen?.().catch(() => undefined);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    const onSlider = target instanceof HTMLInputElement && target.type === 'range';
    const onButton = target instanceof HTMLButtonElement || target instanceof HTMLSelectElement;
    const v = videoRef.current;
    switch (e.key) {
      case ' ':
      case 'k':
        if (e.key === ' ' && onButton) return;
        toggle();
        break;
      case 'ArrowLeft':
      case 'ArrowRight':
        if (onSlider) return;
        seek((v?.currentTime ?? 0) + (e.key === 'ArrowLeft' ? -SEEK_STEP : SEEK_STEP));
        break;
      case 'ArrowUp':
      case 'ArrowDown':
        if (onSlider) return;
        setVolume(snap.player.volume + (e.key === 'ArrowUp' ? VOLUME_STEP : -VOLUME_STEP));
        break;
      case 'm':
        toggleMute();
        break;
      case 'f':
        fullscreen();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const volume = snap.player.muted ? 0 : snap.player.volume;
  return (
    <div
      ref={rootRef}
      className={`video-player${controls || !playing ? ' controls-on' : ''}`}
      tabIndex={0}
      role="group"
      aria-label={t('store.player.label', { title })}
      onKeyDown={onKey}
      onPointerMove={showControls}
      data-testid="video-player"
      data-full={full ? '1' : '0'}
      data-status={status}
      data-playing={playing ? '1' : '0'}
    >
      <video
        ref={videoRef}
        src={src ?? undefined}
        poster={poster}
        playsInline
        preload="metadata"
        onClick={toggle}
        onPlay={() => {
          setPlaying(true);
          onStart();
          showControls();
        }}
        onPause={() => {
          setPlaying(false);
          setControls(true);
          if (videoRef.current) rememberPosition(store, key, videoRef.current.currentTime);
        }}
        onWaiting={() => setStatus('loading')}
        onPlaying={() => setStatus('idle')}
        onCanPlay={() => setStatus('idle')}
        onError={() => src && setStatus('error')}
        onLoadedMetadata={(e) => {
          const v = e.currentTarget;
          setDuration(v.duration);
          const saved = store.player.positions[key];
          if (saved && saved < v.duration - 1) v.currentTime = saved;
        }}
        onTimeUpdate={(e) => {
          const now = e.currentTarget.currentTime;
          setTime(now);
          if (Math.abs(now - lastSaved.current) >= SAVE_EVERY_S) {
            lastSaved.current = now;
            rememberPosition(store, key, now);
          }
        }}
        onEnded={() => rememberPosition(store, key, 0)}
      />
      {status === 'loading' && (
        <div className="player-state" role="status">
          <span className="list-spinner" aria-hidden="true" />
          <span className="sr-only">{t('store.player.loading')}</span>
        </div>
      )}
      {status === 'error' && (
        <div className="player-state player-error" role="alert">
          <p>{t('store.player.error')}</p>
          <button
            type="button"
            className="btn btn-outline btn-small"
            onClick={() => {
              setStatus('loading');
              videoRef.current?.load();
            }}
          >
            {t('store.player.retry')}
          </button>
        </div>
      )}
      {!playing && status !== 'error' && (
        <button type="button" className="player-big-play" onClick={toggle} aria-label={t('store.player.play')} data-testid="player-big-play" disabled={!src}>
          <Icon name="play" size={48} />
        </button>
      )}
      <PlayerControls
        playing={playing}
        disabled={!src}
        time={time}
        duration={duration}
        volume={volume}
        muted={snap.player.muted}
        part={part}
        parts={parts}
        onPointerDown={showControls}
        onToggle={toggle}
        onSeek={seek}
        onMute={toggleMute}
        onVolume={setVolume}
        onPart={onPart}
        onFullscreen={fullscreen}
      />
    </div>
  );
}
