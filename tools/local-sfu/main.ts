import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createLocalSfu } from './server';

// CLI of the local Realtime SFU stand-in (tools/local-sfu/README.md):
//   node main.mjs --port 0 --app ID --secret S [--turn-json FILE|JSON] [--turn-key K --turn-token T]
// It prints `READY <port>` on stdout once it listens on 127.0.0.1.

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    app: { type: 'string', default: 'local-app' },
    secret: { type: 'string', default: 'local-secret' },
    'turn-json': { type: 'string' },
    'turn-key': { type: 'string' },
    'turn-token': { type: 'string' },
  },
});

function iceServers(arg: string | undefined): unknown[] {
  if (!arg) return [];
  const text = arg.trim().startsWith('[') ? arg : readFileSync(arg, 'utf8');
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list)) throw new Error('--turn-json must be a JSON list of ICE servers');
  return list;
}

const { server } = createLocalSfu({
  appId: values.app ?? 'local-app',
  secret: values.secret ?? 'local-secret',
  iceServers: iceServers(values['turn-json']),
  ...(values['turn-key'] ? { turnKeyId: values['turn-key'] } : {}),
  ...(values['turn-token'] ? { turnToken: values['turn-token'] } : {}),
});

server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${address && typeof address === 'object' ? address.port : values.port}\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
// werift throws from its UDP handlers on some unexpected packets (e.g. an undeclared RID): one bad
// packet must not take every session of a test run down with it.
process.on('uncaughtException', (e) => process.stderr.write(`local-sfu: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`));
