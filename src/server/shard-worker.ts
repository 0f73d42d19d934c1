// The Worker of the live rooms' shards (wrangler.shard.toml): RoomShard and what it imports, not
// the application. It serves no requests of its own; the application's worker opens the sockets.
export { RoomShard } from './features/chat/room/shard';

export default {
  fetch: () => new Response('Not found', { status: 404 }),
} satisfies ExportedHandler;
