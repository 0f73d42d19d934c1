import { useSnapshot } from 'valtio';
import type { ContentKind, UploadAppeal } from '../../../shared/restrictions';
import type { ReviewState, UploadStatus } from '../../../shared/uploads';
import { dateText } from '../../lib/date-text';
import { useSnap, useStore, useT } from '../../state/context';
import AppealForm from '../restrictions/appeal-form.island';
import { loadUploads } from './uploads-state';

// The show's own videos and galleries in the studio's uploads card, with their state (pending
// until complete, waiting for review, in the store, or rejected with the reasons), and the appeal
// against a removal or refusal (issue 29 point 3): its state and answer, and the form while the
// decision may be appealed (once per decision: the server's rule, sent as can_appeal).

interface OwnItem {
  id: number;
  kind: ContentKind;
  status: UploadStatus;
  review: ReviewState;
  review_reason: string | null;
  appeal: UploadAppeal | null;
  can_appeal: boolean;
  title: string;
  size: string;
}

/** The performer's own uploads: both lists, then the rejected ones that may still be appealed. */
export function OwnItems() {
  const t = useT();
  const { locale } = useSnap();
  const list = useSnapshot(useStore().studioUploads).list;
  if (!list) return null;
  const title = (x: { title_en: string; title_de: string }) => (locale === 'de' ? x.title_de : x.title_en);
  const videos: OwnItem[] = list.videos.map((v) => ({ ...v, kind: 'video', title: title(v), size: t('studio.uploads.mine.price', { count: v.price }) }));
  const galleries: OwnItem[] = list.galleries.map((g) => ({ ...g, kind: 'gallery', title: title(g), size: t('studio.uploads.mine.pictures', { count: g.picture_count }) }));
  const appealable = [...videos, ...galleries].filter((x) => x.can_appeal);
  return (
    <div className="studio-upload-lists">
      <OwnList title={t('studio.uploads.mine.videos', { count: videos.length })} testId="studio-upload-videos" items={videos} />
      <OwnList title={t('studio.uploads.mine.galleries', { count: galleries.length })} testId="studio-upload-galleries" items={galleries} />
      {appealable.length > 0 && (
        <>
          <h3>{t('studio.uploads.appeal.title', { count: appealable.length })}</h3>
          <p className="small muted">{t('studio.uploads.appeal.lead')}</p>
          <ul className="studio-upload-appeals" data-testid="studio-upload-appeals">
            {appealable.map((x) => (
              <li key={`${x.kind}-${x.id}`} data-kind={x.kind} data-id={x.id} data-testid="upload-appeal">
                <strong>{x.title}</strong>
                {x.review_reason && <span className="small studio-upload-rejected">{t('studio.uploads.rejectedReason', { reason: x.review_reason })}</span>}
                <details>
                  <summary className="btn btn-text btn-small">{t('studio.uploads.appeal.open')}</summary>
                  <AppealForm item={{ kind: x.kind, id: x.id }} onSent={() => void loadUploads()} />
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Where an upload stands: unfinished, waiting for an operator's review, in the store, or rejected (issue 29). */
const stateOf = (x: OwnItem) => (x.status === 'pending' ? 'pending' : x.review === 'approved' ? 'published' : x.review === 'rejected' ? 'rejected' : 'review');

/** The appeal's state and the operator's answer. */
function AppealState({ appeal }: { appeal: UploadAppeal }) {
  const t = useT();
  const { locale } = useSnap();
  return (
    <span className="small studio-upload-appeal" data-testid="upload-appeal-state" data-appeal={appeal.state}>
      {t(`studio.uploads.appeal.state.${appeal.state}`, { date: dateText(appeal.created_at, locale) })}
      {appeal.answer && <> {t('studio.uploads.appeal.answer', { answer: appeal.answer })}</>}
    </span>
  );
}

/** One kind of the performer's own uploads: title, what it is (price or pictures) and its state (a rejection with its reason, an appeal). */
function OwnList({ title, testId, items }: { title: string; testId: string; items: OwnItem[] }) {
  const t = useT();
  return (
    <>
      <h3>{title}</h3>
      <ul className="studio-upload-list" data-testid={testId}>
        {items.map((x) => (
          <li key={x.id} data-id={x.id} data-status={x.status} data-state={stateOf(x)} data-appeal={x.appeal?.state ?? 'none'}>
            <span>{x.title}</span>
            <span className="small muted" data-testid="upload-state">
              {x.size} · {t(`studio.uploads.status.${stateOf(x)}`)}
            </span>
            {x.review === 'rejected' && x.review_reason && (
              <span className="small studio-upload-rejected" data-testid="upload-rejected-reason">
                {t('studio.uploads.rejectedReason', { reason: x.review_reason })}
              </span>
            )}
            {x.appeal && <AppealState appeal={x.appeal} />}
          </li>
        ))}
      </ul>
    </>
  );
}
