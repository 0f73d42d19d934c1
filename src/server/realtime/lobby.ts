import { DurableObject } from 'cloudflare:workers';

/**
 * The live lobby: every open page holds one WebSocket here and receives broadcasts
 * (show:bulkupdate and friends). Uses the hibernation API so idle sockets cost nothing.
 */
export class Lobby extends DurableObject {
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.endsWith('/broadcast') && request.method === 'POST') {
      const message = await request.text();
      let sent = 0;
      for (const ws of this.ctx.getWebSockets()) {
        try {
          ws.send(message);
          sent++;
        } catch {
          // a socket closing right now; the close handler cleans it up
        }
      }
      return Response.json({ sent });
    }
    if (request.headers.get('Upgrade') !== 'websocket') return new Response('expected websocket', { status: 426 });
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    if (message === 'ping') ws.send('pong');
  }

  override webSocketClose(ws: WebSocket, code: number, reason: string): void {
    // 1005 means "no status" and must not be echoed back.
    ws.close(code === 1005 ? 1000 : code, reason);
  }
}
