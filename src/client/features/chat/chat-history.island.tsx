import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { useSnap, useT } from '../../state/context';
import { TableHead } from '../../ui/table-head';

/** One of the member's chat sessions (GET /api/user/chathistory). */
export interface ChatHistoryRow {
  sessionId?: string;
  id?: string | number;
  showId?: number;
  showName?: string;
  show?: { id?: number; name?: string } | string;
  type?: string;
  session_type?: string;
  started_at?: number | string | null;
  start?: number | string | null;
  created_at?: number | string | null;
  minutes?: number;
  coins?: number;
}

function when(v: number | string | null | undefined, locale: string): string {
  if (v === null || v === undefined || v === '') return '';
  const d = typeof v === 'number' ? new Date(v < 1e12 ? v * 1000 : v) : new Date(v);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}

function showName(r: ChatHistoryRow): string {
  if (typeof r.show === 'string') return r.show;
  return r.show?.name ?? r.showName ?? '';
}

/** The member's chat history on the profile: show, type, start, minutes, coins. */
export default function ChatHistory() {
  const t = useT();
  const snap = useSnap();
  const [rows, setRows] = useState<ChatHistoryRow[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    api()
      .get<{ data?: ChatHistoryRow[] } | ChatHistoryRow[]>('user/chathistory')
      .then((res) => setRows(Array.isArray(res) ? res : (res?.data ?? [])))
      .catch(() => setFailed(true));
  }, []);

  return (
    <section className="profile-chat-history" aria-labelledby="chat-history-title" data-testid="chat-history">
      <h2 id="chat-history-title" className="profile-card-title">
        {t('chat.history.title')}
      </h2>
      {failed ? (
        <p className="muted" role="alert">
          {t('chat.history.error')}
        </p>
      ) : rows === null ? (
        <p className="muted" role="status">
          {t('chat.history.loading')}
        </p>
      ) : rows.length === 0 ? (
        <p className="muted" data-testid="chat-history-empty">
          {t('chat.history.empty')}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="studio-statement">
            <TableHead columns={[t('chat.history.show'), t('chat.history.type'), t('chat.history.start'), t('chat.history.minutes'), t('chat.history.coins')]} />
            <tbody>
              {rows.map((r, i) => {
                const type = r.type ?? r.session_type ?? 'free';
                return (
                  <tr key={String(r.sessionId ?? r.id ?? i)} data-testid="chat-history-row">
                    <td>{showName(r)}</td>
                    <td>{t(`chat.type.${type}`)}</td>
                    <td>{when(r.started_at ?? r.start ?? r.created_at, snap.locale)}</td>
                    <td className="num">{r.minutes ?? 0}</td>
                    <td className="num">{r.coins ?? 0}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
