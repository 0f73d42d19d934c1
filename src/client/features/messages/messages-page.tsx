import { Island } from '../../ui/island';
import MessagesIsland, { type MessagesPageProps } from './messages.island';

/** The server-rendered frame of /messages, /messages/{id} and /messages/support: one island. */
export function MessagesPage(props: MessagesPageProps) {
  return <Island name="Messages" component={MessagesIsland} props={props} />;
}
