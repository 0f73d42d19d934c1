import type { DataAnswer, TagItem } from '../../../shared/api';
import { GALLERY_PICTURES_MAX, PREVIEW_SECONDS, UPLOAD_PICTURE_MAX_BYTES, UPLOAD_PICTURE_TYPES, UPLOAD_VIDEO_MAX_BYTES, UPLOAD_VIDEO_TYPES } from '../../../shared/store';
import { saleOf, UPLOAD_THUMB_BOX, type GalleryUploadStart, type StudioUploadsAnswer, type UploadedPart, type VideoUploadStart } from '../../../shared/uploads';
import { api, ApiFailure } from '../../lib/api';
import { appStore } from '../../state/app-store';
import { job, type DeepReadonly, type Job } from './studio.slice';
import { makePreview, pictureOf, probeVideo, sendBytes, type Picture } from './upload-media';

// The studio's uploads: the show's videos and galleries (GET /api/studio/uploads) and one video
// and one gallery upload at a time. A failed chunk is tried again (3 times); after that the
// upload stops and "Try again" goes on from the chunk that failed, not from the start.

/** The document's uploads (the studio slice, studio.slice.ts); actions run in the browser only. */
const uploads = () => appStore().studioUploads;

export async function loadUploads(): Promise<void> {
  try {
    const [list, tags] = await Promise.all([api().get<StudioUploadsAnswer>('studio/uploads'), uploads().tags.length ? null : api().get<DataAnswer<TagItem>>('tags')]);
    uploads().list = list;
    if (tags) uploads().tags = tags.data;
  } catch {
    // The card shows what it has; the next upload loads the list again.
  }
}

/** The name of a sale in the statement (`purchase:video:{id}:{user}`), from the show's own items. */
export function saleTitle(list: DeepReadonly<StudioUploadsAnswer> | null, ref: string | undefined, locale: string): string | null {
  const sale = saleOf(ref);
  const item = sale && (sale.kind === 'video' ? list?.videos : list?.galleries)?.find((x) => x.id === sale.id);
  return item ? (locale === 'de' ? item.title_de : item.title_en) : null;
}

function fail(j: Job, e: unknown): void {
  j.phase = 'failed';
  if (e instanceof ApiFailure) {
    j.error = e.status === 0 ? 'network_error' : e.message;
    j.fields = { ...e.errors };
  } else {
    j.error = (e as Error)?.message === 'media_unreadable' || (e as Error)?.message === 'preview_unsupported' ? (e as Error).message : 'unknown_error';
  }
}

async function retried<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      // upload_busy: another body of this account (another tab) is still on its way; it frees its place.
      const busy = e instanceof ApiFailure && e.message === 'upload_busy';
      const final = attempt >= 3 || (!busy && (!(e instanceof ApiFailure) || (e.status !== 0 && e.status < 500)));
      if (final) throw e;
      await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
  }
}

export interface ItemFields {
  title_en: string;
  title_de: string;
  price: number;
  /** The show's verified people the item depicts (left out: all of them). */
  performers?: number[];
}

interface VideoRun {
  file: File;
  start: VideoUploadStart;
  parts: UploadedPart[];
  poster: Blob;
  preview: Promise<Blob> | null;
  previewSent: boolean;
  posterSent: boolean;
}
let videoRun: VideoRun | null = null;
/** What the last video upload was asked with: "Try again" starts it anew when it failed before its upload began. */
let videoAsked: { file: File; fields: ItemFields & { tags: string[] } } | null = null;

/** Checks, measures and uploads a video; the preview is recorded while the chunks go up. */
export async function uploadVideo(file: File, fields: ItemFields & { tags: string[] }): Promise<void> {
  const j = uploads().video;
  Object.assign(j, job(), { title: fields.title_en });
  videoRun = null;
  videoAsked = { file, fields };
  if (!(UPLOAD_VIDEO_TYPES as readonly string[]).includes(file.type)) return void Object.assign(j, { phase: 'failed', error: 'validation_failed', fields: { file: ['unsupported_type'] } });
  if (file.size > UPLOAD_VIDEO_MAX_BYTES) return void Object.assign(j, { phase: 'failed', error: 'validation_failed', fields: { file: ['too_large'] } });
  j.phase = 'preparing';
  try {
    const { duration, poster } = await probeVideo(file);
    const start = await api().post<VideoUploadStart>('studio/uploads/videos', { ...fields, mime: file.type, size: file.size, duration });
    videoRun = { file, start, parts: [], poster, preview: null, previewSent: false, posterSent: false };
    await continueVideo();
  } catch (e) {
    fail(j, e);
  }
}

/** Goes on with the current video upload (after a failure: from the chunk that failed). */
export async function continueVideo(): Promise<void> {
  const j = uploads().video;
  const run = videoRun;
  if (!run) return videoAsked ? uploadVideo(videoAsked.file, videoAsked.fields) : undefined;
  j.phase = 'uploading';
  j.error = null;
  j.fields = {};
  const { file, start } = run;
  const base = `studio/uploads/videos/${start.video.id}`;
  run.preview ??= makePreview(file, PREVIEW_SECONDS, file.type);
  // A failed recording is made again on the next try; this one must not go unhandled meanwhile.
  run.preview.catch(() => (run.preview = null));
  try {
    const chunks = Math.max(1, Math.ceil(file.size / start.chunk_bytes));
    for (let n = run.parts.length + 1; n <= chunks; n++) {
      const from = (n - 1) * start.chunk_bytes;
      const chunk = file.slice(from, Math.min(file.size, from + start.chunk_bytes));
      const part = await retried(() =>
        sendBytes<UploadedPart>(`${base}/parts/${n}?upload=${encodeURIComponent(start.upload)}`, chunk, 'application/octet-stream', (sent) => {
          j.progress = Math.min(0.99, (from + sent) / file.size);
        }),
      );
      run.parts.push(part!);
    }
    j.progress = 0.99;
    if (!run.posterSent) await retried(() => sendBytes(`${base}/poster`, run.poster, 'image/jpeg'));
    run.posterSent = true;
    if (!run.previewSent) {
      const preview = await (run.preview ?? makePreview(file, PREVIEW_SECONDS, file.type));
      await retried(() => sendBytes(`${base}/preview`, preview, preview.type));
    }
    run.previewSent = true;
    j.phase = 'finishing';
    await retried(() => api().post(`${base}/complete`, { upload: start.upload, parts: run.parts }));
    Object.assign(j, { phase: 'done', progress: 1 });
    videoRun = null;
    await loadUploads();
  } catch (e) {
    // A file refused at complete is deleted with its upload on the server: a new try starts afresh.
    if (e instanceof ApiFailure && e.errors.file) videoRun = null;
    fail(j, e);
  }
}

interface GalleryRun {
  files: File[];
  pictures: Picture[];
  id: number;
  sent: number;
}
let galleryRun: GalleryRun | null = null;
let galleryAsked: { files: File[]; fields: ItemFields } | null = null;

/** Checks the pictures, makes their thumbnails, declares the gallery and sends both sizes. */
export async function uploadGallery(files: File[], fields: ItemFields): Promise<void> {
  const j = uploads().gallery;
  Object.assign(j, job(), { title: fields.title_en });
  galleryRun = null;
  galleryAsked = { files, fields };
  const bad = (code: string) => Object.assign(j, { phase: 'failed', error: 'validation_failed', fields: { files: [code] } });
  if (files.length === 0) return void bad('required');
  if (files.length > GALLERY_PICTURES_MAX) return void bad('too_many');
  if (files.some((f) => !(UPLOAD_PICTURE_TYPES as readonly string[]).includes(f.type))) return void bad('unsupported_type');
  if (files.some((f) => f.size > UPLOAD_PICTURE_MAX_BYTES)) return void bad('too_large');
  j.phase = 'preparing';
  try {
    const pictures: Picture[] = [];
    for (const f of files) pictures.push(await pictureOf(f, UPLOAD_THUMB_BOX));
    const body = { ...fields, pictures: files.map((f, i) => ({ mime: f.type, size: f.size, width: pictures[i].width, height: pictures[i].height })) };
    const { gallery } = await api().post<GalleryUploadStart>('studio/uploads/galleries', body);
    galleryRun = { files, pictures, id: gallery.id, sent: 0 };
    await continueGallery();
  } catch (e) {
    fail(j, e);
  }
}

export async function continueGallery(): Promise<void> {
  const j = uploads().gallery;
  const run = galleryRun;
  if (!run) return galleryAsked ? uploadGallery(galleryAsked.files, galleryAsked.fields) : undefined;
  Object.assign(j, { phase: 'uploading', error: null, fields: {} });
  const base = `studio/uploads/galleries/${run.id}`;
  const total = run.files.reduce((s, f, i) => s + f.size + run.pictures[i].thumb.size, 0);
  let done = run.files.slice(0, run.sent).reduce((s, f, i) => s + f.size + run.pictures[i].thumb.size, 0);
  try {
    for (let i = run.sent; i < run.files.length; i++) {
      const f = run.files[i];
      const thumb = run.pictures[i].thumb;
      await retried(() => sendBytes(`${base}/pictures/${i + 1}/full`, f, f.type, (sent) => (j.progress = Math.min(0.99, (done + sent) / total))));
      await retried(() => sendBytes(`${base}/pictures/${i + 1}/thumb`, thumb, f.type));
      done += f.size + thumb.size;
      run.sent = i + 1;
      j.progress = Math.min(0.99, done / total);
    }
    j.phase = 'finishing';
    await retried(() => api().post(`${base}/complete`));
    Object.assign(j, { phase: 'done', progress: 1 });
    galleryRun = null;
    await loadUploads();
  } catch (e) {
    fail(j, e);
  }
}
