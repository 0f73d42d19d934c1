import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useStore, useT } from '../../state/context';
import { incomingStats, type IncomingStats } from '../video/receiver';

/**
 * While OBS is on air over WHIP (issue 28 point 1): what the SFU receives from it, pulled as a
 * viewer's video is (muted: the performer does not hear themselves), and its resolution, frame
 * rate and bitrate once a second.
 */
export function StudioMonitor() {
  const t = useT();
  const rx = useStore().receiver;
  const r = useSnapshot(rx);
  const el = useRef<HTMLVideoElement>(null);
  const [stats, setStats] = useState<IncomingStats | null>(null);

  useEffect(() => {
    const v = el.current;
    if (v && v.srcObject !== rx.stream) v.srcObject = rx.stream;
  }, [r.stream]);

  useEffect(() => {
    let prev: IncomingStats | null = null;
    const timer = setInterval(() => {
      void incomingStats(prev).then((s) => {
        prev = s;
        setStats(s);
      });
    }, 1_000);
    return () => clearInterval(timer);
  }, []);

  const shown = r.phase === 'playing' && stats && stats.width > 0 && stats.kbps !== null ? stats : null;
  return (
    <>
      <video ref={el} className="studio-preview-el" data-testid="studio-monitor" playsInline autoPlay muted aria-label={t('studio.video.monitor')} />
      <p className="live-video-label" data-testid="studio-monitor-stats" data-width={shown?.width ?? 0} data-height={shown?.height ?? 0} aria-live="off">
        {shown ? t('studio.video.incoming', { width: shown.width, height: shown.height, fps: Math.round(shown.fps), kbps: Math.round(shown.kbps ?? 0) }) : t('studio.video.incomingWait')}
      </p>
    </>
  );
}
