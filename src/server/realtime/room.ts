import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';

/**
 * A room of hibernating WebSockets (idle sockets cost nothing): accepting a socket with its
 * attachment, reading attachments back, sending to all or some, and closing cleanly. The lobby
 * shards are rooms, and so are the per-show rooms (show-room.ts), which tag their sockets.
 */
export abstract class HibernatingRoom<A extends object> extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // The clients' keep-alive (a 'ping' every 20 s) is answered by the runtime: it neither wakes
    // the object nor is billed as a request to it; only real frames reach webSocketMessage.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair('ping', 'pong'));
  }

  /** Accepts the server end of a new socket pair with its attachment; answers the 101 upgrade. */
  protected accept(attachment: A, greeting?: string, tags?: string[]): Response {
    return this.acceptSocket(attachment, greeting === undefined ? [] : [greeting], tags)[0];
  }

  /** accept, with the first frames the socket gets, answering the server end too. */
  protected acceptSocket(attachment: A, frames: string[], tags?: string[]): [Response, WebSocket] {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1], tags);
    pair[1].serializeAttachment(attachment);
    for (const f of frames) pair[1].send(f);
    return [new Response(null, { status: 101, webSocket: pair[0] }), pair[1]];
  }

  protected sockets(): WebSocket[] {
    return this.ctx.getWebSockets();
  }

  protected attachment(ws: WebSocket): A | null {
    return (ws.deserializeAttachment() as A | null) ?? null;
  }

  /** Sends to every socket whose attachment passes `to`; answers how many got it. */
  protected broadcast(message: string, to: (attachment: A | null) => boolean = () => true): number {
    let sent = 0;
    for (const ws of this.sockets()) {
      if (!to(this.attachment(ws))) continue;
      try {
        ws.send(message);
        sent++;
      } catch {
        // closing right now; webSocketClose cleans up
      }
    }
    return sent;
  }

  /** Called once when a socket is gone (closed or failed). */
  protected abstract left(attachment: A | null): Promise<void>;

  override async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
    // 1005 means "no status" and must not be echoed back.
    try {
      ws.close(code === 1005 ? 1000 : code, reason);
    } catch {
      // already closed
    }
    await this.left(this.attachment(ws));
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    await this.left(this.attachment(ws));
  }
}
