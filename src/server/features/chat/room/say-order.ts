// A socket's say frames can reach its object out of order (measured under load: neighbours swap
// before the handler runs, on the shards and on the room's studio sockets alike). The page numbers
// them (`n`: 1, 2, … from each open, room-socket.ts); a frame that arrives ahead of its
// predecessor waits for it, at most SAY_ORDER_WAIT_MS, then goes anyway: nothing is dropped.

/** How long a say frame that came ahead of its socket's previous one waits for it. */
const SAY_ORDER_WAIT_MS = 250;

export class SayOrder {
  /** Per socket, the `n` due next and the frames waiting for their turn. */
  private order = new WeakMap<WebSocket, { next: number; waiting: Map<number, () => void> }>();

  /** Waits until say frame `n` of `ws` is due (or waited long enough); answers what lets the next one go once this one is on its way. */
  async turn(ws: WebSocket, n: number): Promise<() => void> {
    let o = this.order.get(ws);
    if (!o) this.order.set(ws, (o = { next: 1, waiting: new Map() }));
    const order = o;
    if (n > order.next)
      await new Promise<void>((go) => {
        order.waiting.set(n, go);
        setTimeout(go, SAY_ORDER_WAIT_MS);
      });
    order.waiting.delete(n);
    return () => {
      order.next = Math.max(order.next, n + 1);
      order.waiting.get(order.next)?.();
    };
  }
}
