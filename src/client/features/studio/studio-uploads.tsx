import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { UPLOAD_PICTURE_TYPES, UPLOAD_VIDEO_TYPES } from '../../../shared/store';
import { UPLOAD_PRICE_MAX, UPLOAD_TAGS_MAX, UPLOAD_TITLE_MAX } from '../../../shared/uploads';
import type { TFunction } from '../../../shared/translate';
import { useStore, useT } from '../../state/context';
import { errorText } from '../../ui/error-text';
import { Field } from '../../ui/form';
import { OwnItems } from './studio-own-uploads';
import { continueGallery, continueVideo, loadUploads, uploadGallery, uploadVideo } from './uploads-state';
import type { JobView } from './studio.slice';

// The studio's uploads card (issue 13 point 5): upload a video (titles in both languages, price,
// tags; poster, duration and the free preview made in the browser; a progress bar; "Try again"
// goes on from the chunk that failed), create a gallery from pictures, and the show's own
// videos and galleries with their state (pending until complete, then in the store).

function codeText(t: TFunction, code: string | undefined): string | null {
  if (!code) return null;
  const key = `studio.uploads.errors.${code}`;
  const text = t(key);
  return text === key ? errorText(t, code) : text;
}

function fieldsOf(form: HTMLFormElement) {
  const data = new FormData(form);
  const text = (k: string) => String(data.get(k) ?? '').trim();
  // The people ticked (only when the form offered them: the list had loaded).
  const performers = data.has('people') ? data.getAll('performers').map(Number) : undefined;
  return { data, fields: { title_en: text('title_en'), title_de: text('title_de'), price: Number(text('price') || '0'), ...(performers ? { performers } : {}) } };
}

/** Progress, result and the retry of one upload. */
function JobStatus({ job, kind, onRetry }: { job: JobView; kind: 'video' | 'gallery'; onRetry: () => void }) {
  const t = useT();
  if (job.phase === 'idle') return null;
  const general = job.phase === 'failed' && Object.keys(job.fields).length === 0 ? codeText(t, job.error ?? 'unknown_error') : null;
  return (
    <div className="studio-upload-status" data-testid={`upload-${kind}-status`} data-phase={job.phase}>
      {job.phase !== 'failed' && job.phase !== 'done' && (
        <>
          <progress max={100} value={job.phase === 'preparing' ? undefined : Math.round(job.progress * 100)} data-testid={`upload-${kind}-progress`} />
          <span className="small muted" aria-live="polite">
            {t(`studio.uploads.phase.${job.phase}`, { percent: Math.round(job.progress * 100) })}
          </span>
        </>
      )}
      {job.phase === 'done' && (
        <p className="small studio-upload-done" role="status">
          {t(`studio.uploads.done.${kind}`, { title: job.title })}
        </p>
      )}
      {job.phase === 'failed' && (
        <p className="studio-err small" role="alert">
          {general ?? t('studio.uploads.failed')}{' '}
          {!Object.keys(job.fields).length && (
            <button type="button" className="btn btn-text btn-small" data-testid={`upload-${kind}-retry`} onClick={onRetry}>
              {t('studio.retry')}
            </button>
          )}
        </p>
      )}
    </div>
  );
}

/** An upload form of one kind: its fields (children), the submit button, and how the upload goes. */
function UploadForm({ kind, job, onSubmit, onRetry, children }: { kind: 'video' | 'gallery'; job: JobView; onSubmit: (e: FormEvent<HTMLFormElement>) => void; onRetry: () => void; children: ReactNode }) {
  const t = useT();
  const busy = job.phase === 'preparing' || job.phase === 'uploading' || job.phase === 'finishing';
  return (
    <form className="studio-upload-form" data-testid={`upload-${kind}-form`} onSubmit={onSubmit}>
      <h3>{t(`studio.uploads.${kind}.title`)}</h3>
      <fieldset disabled={busy}>
        {children}
        <button type="submit" className="btn btn-primary" data-testid={`upload-${kind}-submit`}>
          {t(`studio.uploads.${kind}.submit`)}
        </button>
      </fieldset>
      <JobStatus job={job} kind={kind} onRetry={onRetry} />
    </form>
  );
}

function ItemFields({ id, job }: { id: string; job: JobView }) {
  const t = useT();
  const err = (k: string) => codeText(t, job.fields[k]?.[0]);
  return (
    <>
      <Field id={`${id}-en`} name="title_en" label={t('studio.uploads.titleEn')} maxLength={UPLOAD_TITLE_MAX} required error={err('title_en')} />
      <Field id={`${id}-de`} name="title_de" label={t('studio.uploads.titleDe')} maxLength={UPLOAD_TITLE_MAX} required error={err('title_de')} />
      <Field id={`${id}-price`} name="price" type="number" min={0} max={UPLOAD_PRICE_MAX} step={1} defaultValue="0" label={t('studio.uploads.price')} error={err('price')} />
      <PeopleField id={id} error={err('performers')} />
    </>
  );
}

/** Which of the show's verified people appear in the item (2257 records): all ticked at first, at least one. */
function PeopleField({ id, error }: { id: string; error: string | null }) {
  const t = useT();
  const people = useSnapshot(useStore().studioUploads).list?.people;
  if (!people?.length) return null;
  return (
    <fieldset className={error ? 'field has-error' : 'field'} data-field="performers" data-testid="upload-people">
      <legend>{t('studio.uploads.people')}</legend>
      <input type="hidden" name="people" value="1" />
      {people.map((p) => (
        <label key={p.id} className="checkbox-row" htmlFor={`${id}-person-${p.id}`}>
          <input type="checkbox" id={`${id}-person-${p.id}`} name="performers" value={p.id} defaultChecked /> {p.stage_name}
        </label>
      ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function VideoForm() {
  const t = useT();
  const id = useId();
  const u = useSnapshot(useStore().studioUploads);
  const job = u.video;
  const [tags, setTags] = useState<string[]>([]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { data, fields } = fieldsOf(e.currentTarget);
    const file = data.get('file');
    if (file instanceof File && file.size > 0) void uploadVideo(file, { ...fields, tags });
  };
  return (
    <UploadForm kind="video" job={job} onSubmit={submit} onRetry={() => void continueVideo()}>
      <Field id={`${id}-file`} name="file" type="file" accept={UPLOAD_VIDEO_TYPES.join(',')} required label={t('studio.uploads.video.file')} hint={t('studio.uploads.video.hint')} error={codeText(t, job.fields.file?.[0] ?? job.fields.mime?.[0] ?? job.fields.size?.[0] ?? job.fields.preview?.[0])} />
      <ItemFields id={id} job={job} />
      <div className="field" data-field="tags">
        <label htmlFor={`${id}-tags`}>{t('studio.uploads.video.tags', { max: UPLOAD_TAGS_MAX })}</label>
        <select id={`${id}-tags`} name="tags" multiple size={5} value={tags} onChange={(e) => setTags([...e.target.selectedOptions].map((o) => o.value).slice(0, UPLOAD_TAGS_MAX))}>
          {u.tags.map((tag) => (
            <option key={tag.slug} value={tag.slug}>
              {tag.name}
            </option>
          ))}
        </select>
        {job.fields.tags && (
          <p className="field-error" role="alert">
            {codeText(t, job.fields.tags[0])}
          </p>
        )}
      </div>
    </UploadForm>
  );
}

function GalleryForm() {
  const t = useT();
  const id = useId();
  const job = useSnapshot(useStore().studioUploads).gallery;
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { data, fields } = fieldsOf(e.currentTarget);
    const files = data.getAll('files').filter((f): f is File => f instanceof File && f.size > 0);
    void uploadGallery(files, fields);
  };
  const fileError = job.fields.files?.[0] ?? Object.entries(job.fields).find(([k]) => k.startsWith('pictures'))?.[1][0];
  return (
    <UploadForm kind="gallery" job={job} onSubmit={submit} onRetry={() => void continueGallery()}>
      <Field id={`${id}-files`} name="files" type="file" multiple accept={UPLOAD_PICTURE_TYPES.join(',')} required label={t('studio.uploads.gallery.files')} hint={t('studio.uploads.gallery.hint')} error={codeText(t, fileError)} />
      <ItemFields id={id} job={job} />
    </UploadForm>
  );
}

/** The studio's uploads card. */
export function StudioUploads() {
  const t = useT();
  useEffect(() => void loadUploads(), []);
  return (
    <section className="studio-card studio-uploads" data-testid="studio-uploads">
      <h2>{t('studio.uploads.title')}</h2>
      <div className="studio-upload-forms">
        <VideoForm />
        <GalleryForm />
      </div>
      <OwnItems />
    </section>
  );
}
