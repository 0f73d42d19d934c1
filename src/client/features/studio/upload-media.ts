import { CSRF_HEADER } from '../../../shared/constants';
import { ApiFailure, csrfToken } from '../../lib/api';

// What the browser does for a studio upload: the video's duration and poster (a canvas frame as
// JPEG), its free preview (MediaRecorder over captureStream of the first seconds, while the file
// goes up), gallery thumbnails (canvas), and sending bytes with progress (XMLHttpRequest: fetch
// reports no upload progress).

function once(target: HTMLMediaElement, ok: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      target.removeEventListener(ok, onOk);
      target.removeEventListener('error', onError);
      clearTimeout(timer);
      fn();
    };
    const onOk = () => done(resolve);
    const onError = () => done(() => reject(new Error('media_unreadable')));
    const timer = setTimeout(() => done(() => reject(new Error('media_unreadable'))), timeoutMs);
    target.addEventListener(ok, onOk);
    target.addEventListener('error', onError);
  });
}

function videoOf(file: Blob): { video: HTMLVideoElement; release: () => void } {
  const url = URL.createObjectURL(file);
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.preload = 'auto';
  video.src = url;
  return {
    video,
    release: () => {
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
    },
  };
}

function canvasBlob(canvas: HTMLCanvasElement, type: string, quality = 0.85): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('media_unreadable'))), type, quality));
}

/** The video's duration (seconds) and a poster: the frame at a third (at most 2 s in), as JPEG. */
export async function probeVideo(file: Blob): Promise<{ duration: number; poster: Blob }> {
  const { video, release } = videoOf(file);
  try {
    await once(video, 'loadedmetadata');
    let duration = video.duration;
    if (!Number.isFinite(duration)) {
      // Recorded WebM often has no duration in its header: seeking to the end tells it.
      video.currentTime = 1e7;
      await once(video, 'seeked');
      duration = video.duration;
    }
    if (!Number.isFinite(duration) || duration <= 0) throw new Error('media_unreadable');
    video.currentTime = Math.min(2, duration / 3);
    await once(video, 'seeked');
    const scale = Math.min(1, 1280 / Math.max(1, video.videoWidth));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
    canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
    canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
    return { duration, poster: await canvasBlob(canvas, 'image/jpeg', 0.82) };
  } finally {
    release();
  }
}

/** The first `seconds` of the video, recorded while it plays muted (about real time). */
export async function makePreview(file: Blob, seconds: number, mime: string): Promise<Blob> {
  const { video, release } = videoOf(file);
  try {
    await once(video, 'loadedmetadata');
    const capture = (video as HTMLVideoElement & { captureStream?: () => MediaStream }).captureStream;
    if (!capture || typeof MediaRecorder === 'undefined') throw new Error('preview_unsupported');
    const container = mime === 'video/mp4' && MediaRecorder.isTypeSupported('video/mp4') ? 'video/mp4' : 'video/webm';
    const stream = capture.call(video);
    const chunks: Blob[] = [];
    const recorder = new MediaRecorder(stream, { mimeType: container, videoBitsPerSecond: 1_200_000 });
    recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
    await video.play();
    recorder.start(1000);
    await new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(guard);
        video.removeEventListener('timeupdate', check);
        video.removeEventListener('ended', end);
        resolve();
      };
      const check = () => video.currentTime >= seconds && end();
      // Wall-clock guard: a stalled file still gives what was recorded.
      const guard = setTimeout(end, (seconds + 10) * 1000);
      video.addEventListener('timeupdate', check);
      video.addEventListener('ended', end);
    });
    video.pause();
    recorder.stop();
    await stopped;
    stream.getTracks().forEach((tr) => tr.stop());
    const blob = new Blob(chunks, { type: container });
    if (blob.size === 0) throw new Error('preview_unsupported');
    return blob;
  } finally {
    release();
  }
}

export interface Picture {
  width: number;
  height: number;
  thumb: Blob;
}

/** A picture's size and its thumbnail (fits `box`, same type as the file). */
export async function pictureOf(file: File, box: { width: number; height: number }): Promise<Picture> {
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error('media_unreadable');
  });
  try {
    const scale = Math.min(1, box.width / bitmap.width, box.height / bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return { width: bitmap.width, height: bitmap.height, thumb: await canvasBlob(canvas, file.type) };
  } finally {
    bitmap.close();
  }
}

/** PUT `body` to /api/`path` with the CSRF header; `onProgress(sentBytes)` while it goes. */
export async function sendBytes<T>(path: string, body: Blob, type: string, onProgress?: (sent: number) => void): Promise<T | null> {
  if (!csrfToken()) await fetch('/api/auth/csrf-cookie', { credentials: 'same-origin' });
  return new Promise<T | null>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `/api/${path}`);
    xhr.setRequestHeader('Content-Type', type);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(CSRF_HEADER, csrfToken() ?? '');
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded);
    xhr.onerror = () => reject(new ApiFailure(0, 'network_error'));
    xhr.onload = () => {
      let data: unknown = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(data as T | null);
      const d = (data ?? {}) as { message?: string; errors?: Record<string, string[]> };
      reject(new ApiFailure(xhr.status, d.message ?? 'unknown_error', d.errors ?? {}, data));
    };
    xhr.send(body);
  });
}
