import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Icon, type IconName } from '../../ui/icon';
import { useStore, useT } from '../../state/context';
import type { VideoLayer } from '../../../shared/video';
import { pickQuality } from './receiver-layers';

const QUALITIES: VideoLayer[] = ['auto', 'f', 'h', 'q'];

/**
 * The performer's live video for a viewer (issue 12 point 4): inline (playsinline), muted at
 * first with an unmute button (autoplay rules), loading and reconnecting states, the show's
 * preview art labelled "camera off" when its performer sends no video, the state when it is
 * not for this viewer (private, full), full screen and picture-in-picture where available.
 */
export function LiveVideo({ name, poster }: { name: string; poster: string }) {
  const t = useT();
  const rx = useStore().receiver;
  const r = useSnapshot(rx);
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  const [frames, setFrames] = useState(false);

  useEffect(() => {
    const v = video.current;
    if (!v || v.srcObject === rx.stream) return;
    v.srcObject = rx.stream;
    setFrames(false);
    if (rx.stream) void v.play().catch(() => undefined);
  }, [r.stream]);

  if (r.phase === 'unsupported') {
    return (
      <div className="live-video" data-testid="live-video" data-state="unsupported">
        <p className="live-video-label" role="status">
          <Icon name="warning" size={14} /> {t('video.unsupported')}
        </p>
      </div>
    );
  }
  if (r.state === null) return null;
  const live = r.state === 'live';
  const playing = live && r.phase === 'playing' && frames;
  const label = !live ? t(`video.state.${r.state}`, { name }) : !playing ? t(r.phase === 'reconnecting' ? 'video.reconnecting' : 'video.connecting') : null;
  const pip = typeof document !== 'undefined' && 'pictureInPictureEnabled' in document && document.pictureInPictureEnabled;

  return (
    <div ref={box} className={`live-video ${playing ? 'is-playing' : ''}`} data-testid="live-video" data-state={r.state} data-phase={r.phase} data-playing={playing ? '1' : '0'} data-layer={r.layer ?? ''}>
      {(r.state === 'camera_off' || r.state === 'waiting') && <img className="live-video-poster" src={poster} alt="" />}
      <video
        ref={video}
        className="live-video-el"
        data-testid="live-video-el"
        playsInline
        autoPlay
        muted={muted}
        hidden={!live}
        aria-label={t('video.label', { name })}
        onPlaying={() => setFrames(true)}
        onWaiting={() => setFrames(false)}
      />
      {label && (
        <p className="live-video-label" role="status" data-testid="live-video-label">
          <Icon name={live ? 'live' : 'video'} size={14} /> {label}
        </p>
      )}
      {playing && (
        // Icon buttons in a strip of their own under the picture: they cover neither the video
        // nor what the stage shows over its foot (the coins warning and its Buy coins link).
        <div className="live-video-controls">
          <VideoButton id="unmute" label={muted ? t('video.unmute') : t('video.mute')} icon={muted ? 'volumeOff' : 'volume'} onClick={() => setMuted(!muted)} />
          {r.layers.length > 1 && (
            <label className="live-video-quality">
              <span className="sr-only">{t('video.quality.label')}</span>
              <select data-testid="video-quality" value={r.quality} onChange={(e) => pickQuality(e.target.value as VideoLayer)}>
                {QUALITIES.filter((q) => q === 'auto' || r.layers.includes(q)).map((q) => (
                  <option key={q} value={q}>
                    {q === 'auto' && r.layer ? t('video.quality.autoAt', { layer: t(`video.quality.${r.layer}`) }) : t(`video.quality.${q}`)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {pip && <VideoButton id="pip" label={t('video.pip')} icon="pip" onClick={() => void video.current?.requestPictureInPicture().catch(() => undefined)} />}
          <VideoButton
            id="fullscreen"
            label={t('video.fullscreen')}
            icon="fullscreen"
            onClick={() => {
              if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
              else void (box.current?.requestFullscreen?.() ?? video.current?.requestFullscreen?.())?.catch(() => undefined);
            }}
          />
        </div>
      )}
    </div>
  );
}

/** An icon button of the strip under the video (test id video-<id>). */
function VideoButton({ id, label, icon, onClick }: { id: string; label: string; icon: IconName; onClick: () => void }) {
  return (
    <button type="button" className="btn live-video-btn" data-testid={`video-${id}`} aria-label={label} title={label} onClick={onClick}>
      <Icon name={icon} size={20} />
    </button>
  );
}
