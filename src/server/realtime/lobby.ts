import { DurableObject } from 'cloudflare:workers';
import { REALTIME_SLOT_RENEW_MS, REALTIME_SLOT_TTL_S } from '../../shared/constants';
import type { Bindings } from '../env';
import { releaseSocket, renewSockets } from '../features/realtime/realtime.repo';

interface Attachment {
  userId: number | null;
  /** The socket's reserved slot (realtime_sockets row), released when it closes. */
  slot?: string | null;
}

/**
 * One shard of the live lobby: holds at most `max` sockets (hibernation API, so idle sockets
 * cost nothing) and relays what the hub sends. A full shard refuses, and the worker tries
 * the next one.
 */
export class Lobby extends DurableObject<Bindings> {
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });

    const max = Number(url.searchParams.get('max')) || 1000;
    if (this.ctx.getWebSockets().length >= max) return new Response('full', { status: 503 });
    const pair = new WebSocketPair();
    const userId = Number(url.searchParams.get('uid')) || null;
    this.ctx.acceptWebSocket(pair[1]);
    pair[1].serializeAttachment({ userId, slot: url.searchParams.get('slot') } satisfies Attachment);
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + REALTIME_SLOT_RENEW_MS);
    pair[1].send(JSON.stringify({ type: 'hello', shard: Number(url.searchParams.get('shard')) || 0 }));
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  /** RPC from the hub: sends to every socket, or only to the sockets of one member. */
  relay(message: string, userId: number | null): number {
    let sent = 0;
    for (const ws of this.ctx.getWebSockets()) {
      if (userId !== null && (ws.deserializeAttachment() as Attachment | null)?.userId !== userId) continue;
      try {
        ws.send(message);
        sent++;
      } catch {
        // closing right now; webSocketClose cleans up
      }
    }
    return sent;
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    if (message === 'ping') ws.send('pong');
  }

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // 1005 means "no status" and must not be echoed back.
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    await this.release(ws);
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.release(ws);
  }

  private async release(ws: WebSocket): Promise<void> {
    const slot = (ws.deserializeAttachment() as Attachment | null)?.slot;
    if (slot) await releaseSocket(this.env.DB, slot).catch(() => undefined);
  }

  /** Renews the slots of the sockets still open; a shard without sockets stops renewing. */
  override async alarm(): Promise<void> {
    const slots = this.ctx
      .getWebSockets()
      .map((ws) => (ws.deserializeAttachment() as Attachment | null)?.slot)
      .filter((s): s is string => !!s);
    await renewSockets(this.env.DB, slots, REALTIME_SLOT_TTL_S);
    if (slots.length) await this.ctx.storage.setAlarm(Date.now() + REALTIME_SLOT_RENEW_MS);
  }
}
