// The performer's camera and microphone as the browser offers them: the quality presets, the
// constraints asked for, the devices listed, and what a failed start means.

export const PRESETS = {
  low: { width: 426, height: 240, fps: 24, kbps: 350 },
  sd: { width: 640, height: 360, fps: 30, kbps: 900 },
  hd: { width: 1280, height: 720, fps: 30, kbps: 2500 },
} as const;
export type Preset = keyof typeof PRESETS;

export type CameraStatus = 'off' | 'starting' | 'on' | 'denied' | 'missing' | 'error' | 'unsupported';

export interface Device {
  id: string;
  label: string;
}

export function cameraConstraints(preset: Preset, cameraId: string, micId: string): MediaStreamConstraints {
  const p = PRESETS[preset];
  return {
    video: { ...(cameraId ? { deviceId: { exact: cameraId } } : {}), width: { ideal: p.width }, height: { ideal: p.height }, frameRate: { ideal: p.fps } },
    audio: micId ? { deviceId: { exact: micId } } : true,
  };
}

export async function listDevices(): Promise<{ cameras: Device[]; mics: Device[] }> {
  const all = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
  const pick = (kind: MediaDeviceKind): Device[] => all.filter((d) => d.kind === kind).map((d, i) => ({ id: d.deviceId, label: d.label || `${kind === 'videoinput' ? 'Camera' : 'Microphone'} ${i + 1}` }));
  return { cameras: pick('videoinput'), mics: pick('audioinput') };
}

/** The status a failed getUserMedia leaves. */
export function cameraFailure(e: unknown): CameraStatus {
  const name = (e as DOMException).name;
  return name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : name === 'NotFoundError' || name === 'OverconstrainedError' ? 'missing' : 'error';
}
