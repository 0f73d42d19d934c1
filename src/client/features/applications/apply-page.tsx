import type { MyApplication, ShowInvite } from '../../../shared/applications';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import ApplyForm from './apply-form.island';

/** /apply: the member's application, its state and the operator's message; the form when there is none open. */
export function ApplyPage({ application, invites = [] }: { application: MyApplication | null; invites?: ShowInvite[] }) {
  const t = useT();
  const state = application?.state;
  return (
    <section className="info-page apply-page" data-testid="apply-page" data-state={state ?? 'none'}>
      <h1>{t('applications.title')}</h1>
      <p className="lead">{t('applications.lead')}</p>
      {application && (
        <div className="form-note" role="status" data-testid="apply-state">
          <p>{t(`applications.state.${application.state}`, { stage_name: application.stage_name })}</p>
          {application.message && (
            <p data-testid="apply-message">
              <strong>{t('applications.message')}</strong> {application.message}
            </p>
          )}
          {state === 'approved' && application.join_show_id !== null && <p data-testid="apply-joined">{t('applications.joined')}</p>}
          {state === 'approved' && application.join_show_id === null && (
            <p>
              <a className="btn btn-primary" href="/studio" data-testid="apply-studio">
                {t('applications.openStudio')}
              </a>
            </p>
          )}
        </div>
      )}
      {state !== 'submitted' && state !== 'approved' && <Island name="ApplyForm" component={ApplyForm} props={{ invites }} />}
    </section>
  );
}
