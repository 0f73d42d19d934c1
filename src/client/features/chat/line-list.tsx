import { useEffect, useRef, type ReactNode } from 'react';
import type { ChatLine } from '../../../shared/chat';
import { useSnap, useT } from '../../state/context';
import { Icon } from '../../ui/icon';
import { ReportButton } from '../reports/report-dialog';
import { itemKey, type RoomItem } from './room-lines';

// The list of a room's lines (as text, never HTML), tips and notices, scrolled to the newest; the
// viewer's chat, the partner frame and the studio show their lines with it.
// `me`: the reader's participant id, whose lines are marked `mine`; the studio passes null, so the
// performer's own lines keep the performer's colour (from-performer), as they always had.
// `reportShow`: the show whose room this is; each line of someone else gets a report flag.

export function LineList({
  items,
  me,
  empty,
  testId,
  className = '',
  reportShow,
  tools,
}: {
  items: readonly RoomItem[];
  me: string | null;
  empty: string;
  testId: string;
  className?: string;
  reportShow?: number;
  /** More controls on a line (a moderator's, chat-mod-tools.tsx); null for none. */
  tools?: (line: ChatLine) => ReactNode;
}) {
  const t = useT();
  const ref = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [items.length]);
  return (
    <ol className={`chat-lines ${className}`.trim()} ref={ref} aria-live="polite" data-testid={testId}>
      {items.length === 0 && <li className="chat-empty muted small">{t(empty)}</li>}
      {items.map((item) => (
        <ItemView key={itemKey(item)} item={item} me={me} reportShow={reportShow} tools={tools} />
      ))}
    </ol>
  );
}

function ItemView({ item, me, reportShow, tools }: { item: RoomItem; me: string | null; reportShow?: number; tools?: (line: ChatLine) => ReactNode }) {
  const t = useT();
  const { locale } = useSnap();
  if (item.kind === 'notice') return <li className="chat-line notice muted small">{t(item.key, item.vars)}</li>;
  if (item.kind === 'tip') {
    return (
      <li className="chat-line tip" data-testid="chat-tip-line">
        <Icon name="gift" size={14} />
        {item.action ? t('chat.tip.menuLine', { nick: item.nick, count: item.coins, action: locale === 'de' ? item.action.de : item.action.en }) : t('chat.tip.line', { nick: item.nick, count: item.coins })}
      </li>
    );
  }
  const l = item.line;
  const cls = ['chat-line', `from-${l.role}`, l.from === me ? 'mine' : '', l.to ? 'private' : ''].filter(Boolean).join(' ');
  return (
    <li className={cls} data-testid="chat-line" data-from={l.role}>
      {l.role !== 'system' && <span className="chat-nick">{l.nick}</span>}
      <span className="chat-text">{l.text}</span>
      {reportShow !== undefined && l.role !== 'system' && l.from !== me && <ReportButton compact kind="chat_line" targetId={l.id} showId={reportShow} quote={`${l.nick}: ${l.text}`} />}
      {tools && l.from !== me && tools(l)}
    </li>
  );
}

/** "‹nick› is typing…" while the room's last typing notice is fresh (a blank line keeps the layout). */
export function TypingLine({ typing, now, testId }: { typing: { nick: string; until: number } | null; now: number; testId?: string }) {
  const t = useT();
  return (
    <p className="chat-typing muted small" data-testid={testId}>
      {typing && typing.until > now ? t('chat.panel.typing', { nick: typing.nick }) : '\u00a0'}
    </p>
  );
}
