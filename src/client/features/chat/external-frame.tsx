import type { SessionType } from '../../../shared/chat';
import { useT } from '../../state/context';
import { Island } from '../../ui/island';
import ExternalChat from './external-chat.island';

/** What the partner frame (/api/chat/external/vxm) needs: the session's room credentials and its show. */
export interface ExternalFrameProps {
  /** ok: the session runs; invalid: the link does not open this browser's session; ended: it is over. */
  status: 'ok' | 'invalid' | 'ended' | string;
  show: { id: number; universalId: string; contentproviderId: number; name: string } | null;
  answer: { realm: string; login: string; password: string; sessionId: string; session_type: SessionType; nickname: string; price: number; voicecall: boolean } | null;
}

/** The partner frame's document body (no app bar, no footer: it lives inside the show page). */
export function ExternalFramePage(props: ExternalFrameProps) {
  const t = useT();
  if (props.status !== 'ok' || !props.show || !props.answer) {
    return (
      <main className="external-page">
        <p className="external-refused" role="alert" data-testid="external-refused" data-status={props.status}>
          {t(props.status === 'ended' ? 'chat.external.refusedEnded' : 'chat.external.refused')}
        </p>
      </main>
    );
  }
  return (
    <main className="external-page">
      <Island name="ExternalChat" component={ExternalChat} props={props} />
    </main>
  );
}
