import { useId, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { CHAT_TEXT_MAX } from '../../../shared/chat';
import { Icon } from '../../ui/icon';
import { useSnap, useStore, useT } from '../../state/context';
import { useNow } from '../chat/chat-parts';
import { LineList, TypingLine } from '../chat/line-list';
import type { RoomItem } from '../chat/room-lines';
import { command, say, typing } from './studio-state';
import type { StatementRow } from './studio.slice';
import { saleTitle } from './uploads-state';
import { TableHead } from '../../ui/table-head';

type Command = Parameters<typeof command>[0] & { t: string };

/** A small button that sends one room command (data-action: the command's name, when asked). */
function CommandButton({ kind = 'text', testId, action, cmd, label }: { kind?: 'primary' | 'text'; testId?: string; action?: boolean; cmd: Command; label: string }) {
  return (
    <button type="button" className={`btn btn-${kind} btn-small`} data-testid={testId} data-action={action ? cmd.t : undefined} onClick={() => command(cmd)}>
      {label}
    </button>
  );
}

/** Pending private and exclusive requests, highlighted (no sound), with accept and decline. */
export function StudioRequests() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const pending = Object.values(s.sessions).filter((x) => x.state === 'pending' && x.type !== 'free');
  if (pending.length === 0) return null;
  return (
    <section className="studio-card studio-requests" aria-live="assertive" data-testid="studio-requests">
      <h2>{t('studio.requests.title')}</h2>
      <ul>
        {pending.map((r) => (
          <li key={r.sessionId} className="studio-request" data-session={r.sessionId}>
            <span>{t(r.by_call ? 'studio.requests.lineByCall' : 'studio.requests.line', { nick: r.nick, type: t(`chat.type.${r.type}`), price: r.price })}</span>
            <span className="studio-row-actions">
              <CommandButton kind="primary" testId="studio-accept" cmd={{ t: 'accept', sessionId: r.sessionId }} label={t('studio.requests.accept')} />
              <CommandButton testId="studio-decline" cmd={{ t: 'decline', sessionId: r.sessionId }} label={t('studio.requests.decline')} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The private (or exclusive) member: their lines with the performer, an answer box, the end. */
export function StudioPrivate() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const id = s.privateWith;
  const session = id ? s.sessions[id] : null;
  if (!id || !session || session.state !== 'active') return null;
  const lines = s.items.filter((i) => i.kind === 'line' && (i.line.from === id || i.line.to === id)) as RoomItem[];
  return (
    <section className="studio-card studio-private" data-testid="studio-private" data-session={id}>
      <div className="studio-card-head">
        <h2>{t('studio.private.title', { nick: session.nick, type: t(`chat.type.${session.type}`) })}</h2>
        <span className="small muted" data-testid="studio-private-minutes">
          {t(session.by_call ? 'studio.private.minutesByCall' : 'studio.private.minutes', { count: session.minutes, coins: session.coins })}
        </span>
        <button type="button" className="btn btn-outline btn-small" data-testid="studio-end-private" onClick={() => command({ t: 'end', sessionId: id })}>
          {t('studio.private.end')}
        </button>
      </div>
      {s.warn?.sessionId === id && (
        <p className="chat-warn small" role="status">
          {t('studio.private.warn', { nick: session.nick, seconds: s.warn.seconds })}
        </p>
      )}
      <LineList items={lines} me={null} empty="studio.chat.empty" testId="studio-private-lines" className="studio-lines" />
      <SayBox to={id} testId="studio-private-input" label={t('studio.private.input', { nick: session.nick })} />
    </section>
  );
}

/** The room's chat (public lines and tips) with the answer box. */
export function StudioChat() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const now = useNow(1_000);
  const items = s.items.filter((i) => i.kind !== 'line' || !i.line.to) as RoomItem[];
  return (
    <section className="studio-card studio-chat">
      <h2>{t('studio.chat.title')}</h2>
      <LineList items={items} me={null} empty="studio.chat.empty" testId="studio-lines" className="studio-lines" />
      <TypingLine typing={s.typing} now={now} />
      <SayBox testId="studio-input" label={t('studio.chat.input')} />
    </section>
  );
}


function SayBox({ to, testId, label }: { to?: string; testId: string; label: string }) {
  const t = useT();
  const id = useId();
  const s = useSnapshot(useStore().studio);
  const [text, setText] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    if (say(text, to)) setText('');
  }
  return (
    <form className="chat-send" onSubmit={submit}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        className="chat-input"
        data-testid={testId}
        maxLength={CHAT_TEXT_MAX}
        autoComplete="off"
        placeholder={label}
        value={text}
        disabled={!s.connected}
        onChange={(e) => {
          setText(e.target.value);
          // The room sees the performer typing; a private answer stays private.
          if (!to) typing();
        }}
      />
      <button type="submit" className="btn btn-primary" disabled={!s.connected || !text.trim()} data-testid={`${testId}-send`}>
        {t('chat.panel.send')}
      </button>
    </form>
  );
}

/** Everyone in the room: guests and members by nickname, their session type, mute/kick/ban. */
export function StudioPeople() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const people = s.participants.filter((p) => p.role !== 'performer');
  // A timed mute (chat safety) shows until it ends; the room decides, this clock only hides it then.
  const now = useNow(15_000);
  const { locale } = useSnap();
  const clockTime = (ms: number) => new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(ms));
  return (
    <section className="studio-card studio-people">
      <h2>{t('studio.people.title', { count: people.length })}</h2>
      {people.length === 0 ? (
        <p className="muted small" data-testid="studio-people-empty">
          {t('studio.people.empty')}
        </p>
      ) : (
        <ul className="studio-people-list" data-testid="studio-people">
          {people.map((p) => (
            <li key={p.id} className="studio-person" data-nick={p.nick} data-session={p.id}>
              <span className="studio-person-name">
                <span className="chat-nick">{p.nick}</span>
                <span className="small muted">
                  {t(`studio.people.role.${p.role}`)}
                  {p.type ? ` · ${t(`chat.type.${p.type}`)}` : ''}
                  {p.muted ? ` · ${t('studio.people.muted')}` : ''}
                  {p.muted_until && p.muted_until > now ? (
                    <span className="studio-muted-until" data-testid="studio-muted-until">
                      {' · '}
                      {t('studio.people.mutedUntil', { time: clockTime(p.muted_until) })}
                    </span>
                  ) : null}
                </span>
              </span>
              <span className="studio-row-actions">
                {p.muted_until && p.muted_until > now ? (
                  <button type="button" className="btn btn-text btn-small" data-testid="studio-unmute-timed" aria-label={t('studio.people.unmuteTimed', { nick: p.nick })} onClick={() => command({ t: 'mod', act: 'unmute', sessionId: p.id })}>
                    {t('studio.people.unmute')}
                  </button>
                ) : null}
                <CommandButton action cmd={{ t: p.muted ? 'unmute' : 'mute', sessionId: p.id }} label={p.muted ? t('studio.people.unmute') : t('studio.people.mute')} />
                <CommandButton action cmd={{ t: 'kick', sessionId: p.id }} label={t('studio.people.kick')} />
                <CommandButton action cmd={{ t: 'ban', sessionId: p.id }} label={t('studio.people.ban')} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function rowTime(r: StatementRow): string {
  const v = r.ts ?? r.created_at;
  if (v === undefined) return '';
  const d = typeof v === 'number' ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** Today's earnings and the statement (newest first). */
export function StudioEarnings() {
  const t = useT();
  const s = useSnapshot(useStore().studio);
  const own = useSnapshot(useStore().studioUploads).list;
  const { locale } = useSnap();
  const e = s.info?.earnings;
  const sold = (r: StatementRow) => saleTitle(own, r.ref, locale);
  if (!e) {
    return (
      <section className="studio-card studio-earnings">
        <h2>{t('studio.earnings.title')}</h2>
        <p className="muted small">{t('studio.earnings.unavailable')}</p>
      </section>
    );
  }
  return (
    <section className="studio-card studio-earnings">
      <h2>{t('studio.earnings.title')}</h2>
      <p className="studio-today">
        <Icon name="coins" size={20} />
        <span data-testid="studio-today">{e.today}</span>
        <span className="small muted">{t('studio.earnings.today')}</span>
      </p>
      {e.statement.length === 0 ? (
        <p className="muted small">{t('studio.earnings.empty')}</p>
      ) : (
        <table className="studio-statement" data-testid="studio-statement">
          <TableHead columns={[t('studio.earnings.time'), t('studio.earnings.what'), t('studio.earnings.coins')]} />
          <tbody>
            {e.statement.slice(0, 50).map((r, i) => {
              const kind = r.reason ?? r.kind ?? r.type ?? 'other';
              const label = t(`studio.earnings.kind.${kind}`);
              return (
                <tr key={String(r.id ?? r.ref ?? r.reference ?? i)}>
                  <td>{rowTime(r)}</td>
                  <td>
                    {label.startsWith('studio.') ? kind : label}
                    {r.nick ? ` · ${r.nick}` : ''}
                    {/* A sale names the video or gallery sold (the show's own items, from the uploads card). */}
                    {sold(r) ? ` · ${sold(r)}` : ''}
                  </td>
                  <td className="num">{r.coins ?? r.amount ?? 0}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
