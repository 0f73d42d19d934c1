import { useEffect, useId, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { Icon } from '../../ui/icon';
import { useStore, useT } from '../../state/context';
import { PRESETS, type Device, type Preset } from '../video/camera';
import { changeSource, endWhip, mute, startCamera, stopCamera, switchCamera } from '../video/publisher';
import { StudioMonitor } from './studio-monitor';
import { isWatcherId } from '../../../shared/video';

/**
 * The studio's camera (issue 12 point 3): camera, microphone and quality pickers, the preview,
 * mute for each, switching cameras (phones), and whether the show's viewers get the video and
 * how many are connected. Without a camera or its permission it says so and the rest works.
 */
export function StudioVideo() {
  const t = useT();
  const pub = useStore().publisher;
  const p = useSnapshot(pub);
  const s = useSnapshot(useStore().studio);
  const preview = useRef<HTMLVideoElement>(null);
  const camId = useId();
  const micId = useId();
  const presetId = useId();

  useEffect(() => {
    const v = preview.current;
    if (v && v.srcObject !== pub.preview) v.srcObject = pub.preview;
  }, [p.preview]);

  const on = p.status === 'on';
  const connected = p.relay === 'cloudflare' ? p.receiving : Object.entries(p.peers).filter(([sid, x]) => x === 'connected' && !isWatcherId(sid)).length;
  const status = s.info?.status;
  // On air only once the delivery is up (the SFU connection, or peer to peer published).
  const delivery = p.link === 'connected' ? 'live' : p.link === 'reconnecting' || p.link === 'failed' ? p.link : 'starting';
  // OBS publishing over WHIP (the room says so) is on air whatever this camera does.
  const air = p.whip ? 'whip' : !on ? 'off' : !status?.online ? 'offline' : status.paused ? 'paused' : p.live ? delivery : 'starting';
  const problem = p.status === 'denied' || p.status === 'missing' || p.status === 'error' || p.status === 'unsupported';

  return (
    <section className="studio-card studio-video" aria-labelledby={`${camId}-h`} data-testid="studio-video" data-camera={p.status} data-air={air}>
      <h2 id={`${camId}-h`}>
        {t('studio.video.title')}
      </h2>
      <div className="studio-preview">
        {p.whip && <StudioMonitor />}
        <video ref={preview} className="studio-preview-el" data-testid="studio-preview" playsInline autoPlay muted hidden={!on || p.whip} aria-label={t('studio.video.preview')} />
        {!on && !p.whip && (
          <p className="studio-preview-off muted">
            <Icon name="video" size={28} />
            {t(p.status === 'starting' ? 'studio.video.starting' : 'studio.video.off')}
          </p>
        )}
        {on && !p.whip && p.camMuted && <p className="live-video-label">{t('studio.video.camMuted')}</p>}
      </div>
      <p className={`studio-air small air-${air}`} data-testid="studio-air" aria-live="polite" role={air === 'failed' ? 'alert' : undefined}>
        {t(`studio.video.air.${air}`)}
        {(air === 'live' || air === 'whip') && <span data-testid="studio-video-viewers"> · {t('studio.video.viewers', { count: connected })}</span>}
        {p.relay === 'p2p' && air === 'live' && <span className="muted"> · {t('studio.video.p2p')}</span>}
      </p>
      {problem && (
        <p className="studio-err small" role="alert" data-testid="studio-camera-error">
          {t(`studio.video.problem.${p.status}`)}
        </p>
      )}
      <div className="studio-video-buttons">
        {p.whip && (
          <button type="button" className="btn btn-outline" data-testid="whip-end" onClick={endWhip}>
            {t('studio.video.whipEnd')}
          </button>
        )}
        {on ? (
          <>
            <button type="button" className="btn btn-outline" data-testid="camera-stop" onClick={stopCamera}>
              {t('studio.video.stop')}
            </button>
            <button type="button" className="btn btn-outline" data-testid="camera-mute" aria-pressed={p.camMuted} onClick={() => mute('cam', !p.camMuted)}>
              {p.camMuted ? t('studio.video.camOn') : t('studio.video.camOff')}
            </button>
            <button type="button" className="btn btn-outline" data-testid="mic-mute" aria-pressed={p.micMuted} onClick={() => mute('mic', !p.micMuted)}>
              {p.micMuted ? t('studio.video.micOn') : t('studio.video.micOff')}
            </button>
            {p.cameras.length > 1 && (
              <button type="button" className="btn btn-outline" data-testid="camera-switch" onClick={() => void switchCamera()}>
                {t('studio.video.switch')}
              </button>
            )}
          </>
        ) : (
          p.status !== 'unsupported' && (
            <button type="button" className="btn btn-primary" data-testid="camera-start" disabled={p.status === 'starting' || p.whip} onClick={() => void startCamera()}>
              {t(problem ? 'studio.video.retry' : 'studio.video.start')}
            </button>
          )
        )}
      </div>
      <div className="studio-video-pickers">
        <DeviceSelect id={camId} label={t('studio.video.camera')} testId="camera-select" devices={p.cameras} value={p.cameraId} disabled={!on} onPick={(cameraId) => void changeSource({ cameraId })} />
        <DeviceSelect id={micId} label={t('studio.video.mic')} testId="mic-select" devices={p.mics} value={p.micId} disabled={!on} onPick={(micId) => void changeSource({ micId })} />
        <label htmlFor={presetId}>{t('studio.video.quality')}</label>
        <select id={presetId} data-testid="preset-select" value={p.preset} onChange={(e) => void changeSource({ preset: e.target.value as Preset })}>
          {(Object.keys(PRESETS) as Preset[]).map((k) => (
            <option key={k} value={k}>
              {t(`studio.video.preset.${k}`, { height: PRESETS[k].height, kbps: PRESETS[k].kbps })}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

/** A camera or microphone picker (disabled until the camera runs and lists its devices). */
function DeviceSelect(props: { id: string; label: string; testId: string; devices: readonly Device[]; value: string; disabled: boolean; onPick(id: string): void }) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} data-testid={props.testId} value={props.value} disabled={props.disabled || props.devices.length === 0} onChange={(e) => props.onPick(e.target.value)}>
        {props.devices.map((d) => (
          <option key={d.id} value={d.id}>
            {d.label}
          </option>
        ))}
      </select>
    </>
  );
}
