import { InboxPanel } from './inbox-panel';

/** /operator/messages: operators read and answer the members' support threads, live. */
export default function OperatorInbox() {
  return <InboxPanel side="support" />;
}
