import { REALTIME_SLOT_RENEW_MS, REALTIME_SLOT_TTL_S } from '../../shared/constants';
import { releaseSocket, renewSockets } from './sockets.repo';
import { HibernatingRoom } from './room';

interface Attachment {
  userId: number | null;
  /** The member's login (Variables.loginId) that opened the socket. */
  login?: string | null;
  /** The socket's reserved slot (realtime_sockets row), released when it closes. */
  slot?: string | null;
  /** The place the socket connected from (country, region codes): geo-blocked shows' pushes skip it. */
  geo?: string[];
}

/**
 * One shard of the live lobby: holds at most `max` sockets and relays what the hub sends. A full
 * shard refuses, and the worker tries the next one. Joining is a fetch because a WebSocket
 * upgrade can only be handed over in a fetch; everything else is RPC.
 */
export class Lobby extends HibernatingRoom<Attachment> {
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });
    const max = Number(url.searchParams.get('max')) || 1000;
    if (this.sockets().length >= max) return new Response('full', { status: 503 });
    const userId = Number(url.searchParams.get('uid')) || null;
    const login = userId ? url.searchParams.get('login') : null;
    // Accepted before anything is awaited, so a parallel join already counts this socket.
    const geo = (url.searchParams.get('geo') ?? '').split(',').filter((g) => /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(g));
    const res = this.accept({ userId, login, slot: url.searchParams.get('slot'), geo }, JSON.stringify({ type: 'hello', shard: Number(url.searchParams.get('shard')) || 0 }));
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + REALTIME_SLOT_RENEW_MS);
    return res;
  }

  /** RPC from the hub: sends to every socket, or only to the sockets of one member; never to a socket from a place in `hideFrom`. */
  relay(message: string, userId: number | null, hideFrom: string[] = []): number {
    return this.broadcast(message, (a) => (userId === null || a?.userId === userId) && !(a?.geo ?? []).some((g) => hideFrom.includes(g)));
  }

  /**
   * RPC from the hub: a show:bulkupdate. `blocks` names, per show, the places it is hidden from
   * (geo-blocking); a socket from such a place gets the batch without those shows. null (the
   * rules could not be read): sockets with a known place get nothing, see a gap in the sequence
   * and refetch the filtered list of live shows.
   */
  relayStatus(event: { seq: number; ts: number; data: { id: number; online: boolean }[] }, blocks: Record<number, string[]> | null): number {
    const full = JSON.stringify({ type: 'show:bulkupdate', ...event });
    const byPlace = new Map<string, string | null>();
    const forPlace = (geo: string[]): string | null => {
      if (geo.length === 0) return full;
      if (blocks === null) return null;
      const hidden = (id: number) => (blocks[id] ?? []).some((code) => geo.includes(code));
      return event.data.some((d) => hidden(d.id)) ? JSON.stringify({ type: 'show:bulkupdate', ...event, data: event.data.filter((d) => !hidden(d.id)) }) : full;
    };
    let sent = 0;
    for (const ws of this.sockets()) {
      const geo = this.attachment(ws)?.geo ?? [];
      const key = geo.join(',');
      if (!byPlace.has(key)) byPlace.set(key, forPlace(geo));
      const message = byPlace.get(key);
      if (message == null) continue;
      try {
        ws.send(message);
        sent++;
      } catch {
        // closing right now; webSocketClose cleans up
      }
    }
    return sent;
  }

  /** RPC from the hub: each message to every socket of its member; answers how many sends. */
  relayToUsers(messages: { userId: number; message: string }[]): number {
    const byUser = new Map<number, string[]>();
    for (const m of messages) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m.message]);
    let sent = 0;
    for (const ws of this.sockets()) {
      const userId = this.attachment(ws)?.userId;
      for (const message of (userId != null && byUser.get(userId)) || []) {
        try {
          ws.send(message);
          sent++;
        } catch {
          // closing right now; webSocketClose cleans up
        }
      }
    }
    return sent;
  }

  /**
   * RPC from the hub: the logins of a member ended. Their sockets get `message` (null: none) and
   * are closed; `keep` names a login whose sockets stay, `only` the one login whose sockets go.
   */
  closeLogins(userId: number, which: { keep?: string | null; only?: string | null }, message: string | null): number {
    let closed = 0;
    for (const ws of this.sockets()) {
      const a = this.attachment(ws);
      if (a?.userId !== userId || (which.keep != null && a.login === which.keep) || (which.only != null && a.login !== which.only)) continue;
      try {
        if (message !== null) ws.send(message);
        ws.close(4001, 'logout');
        closed++;
      } catch {
        // closing right now; webSocketClose cleans up
      }
    }
    return closed;
  }

  protected async left(attachment: Attachment | null): Promise<void> {
    if (attachment?.slot) await releaseSocket(this.env.DB, attachment.slot).catch(() => undefined);
  }

  /** Renews the slots of the sockets still open; a shard without sockets stops renewing. */
  override async alarm(): Promise<void> {
    const slots = this.sockets()
      .map((ws) => this.attachment(ws)?.slot)
      .filter((s): s is string => !!s);
    await renewSockets(this.env.DB, slots, REALTIME_SLOT_TTL_S);
    if (slots.length) await this.ctx.storage.setAlarm(Date.now() + REALTIME_SLOT_RENEW_MS);
  }
}
