import { DEMO_MEMBER } from './rows';

// Demo conversations (issue 14): the demo member has threads with the first three demo shows and
// a support thread, some answers unread, so /messages is not empty on a fresh start. The demo
// operator answers support threads from /operator/messages. Neutral texts only.

export const DEMO_OPERATOR = { name: 'operator', email: 'operator@example.com', password: 'operator-pass-2026' };

const OPERATOR_INSERT = 'INSERT INTO users (name, email, password_hash, is_verified, age_verified, created_at, welcome_shown_at) VALUES';

/** The operator's users row (values: name, email, hash, 1, 1, now, now) and role row. */
export function operatorStatements(hashLiteral: string, now: number): string[] {
  return [
    `${OPERATOR_INSERT} ('${DEMO_OPERATOR.name}', '${DEMO_OPERATOR.email}', ${hashLiteral}, 1, 1, ${now}, ${now})`,
    `INSERT INTO operators (user_id, created_at) SELECT id, ${now} FROM users WHERE name = '${DEMO_OPERATOR.name}'`,
  ];
}

type Line = [author: 'member' | 'show' | 'support', body: string, hoursAgo: number, read: boolean];

const THREADS: { showId: number; pseudo: string; lines: Line[] }[] = [
  {
    showId: 1,
    pseudo: 'Fan-DEMO01',
    lines: [
      ['member', 'Hello! I enjoyed your music evening yesterday.', 30, true],
      ['show', 'Thank you so much! Next one is on Friday.', 29, true],
      ['show', 'I will play some requests too, feel free to send one.', 2, false],
    ],
  },
  {
    showId: 2,
    pseudo: 'Fan-DEMO02',
    lines: [
      ['member', 'Hi Mira, which city was the travel story from?', 50, true],
      ['show', 'It was Lisbon! I will tell more about it tonight.', 5, false],
    ],
  },
  {
    showId: 3,
    pseudo: 'Fan-DEMO03',
    lines: [
      ['member', 'Have a nice weekend!', 80, true],
      ['show', 'You too, see you next week.', 79, true],
    ],
  },
  {
    showId: 0,
    pseudo: 'Fan-DEMO00',
    lines: [
      ['member', 'Hello support, how do I change my nickname?', 20, true],
      ['support', 'Hello! Open your profile and choose the nicknames tab.', 19, false],
    ],
  },
];

const esc = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The demo member's conversations and messages as plain SQL (no parameters). */
export function demoConversationStatements(now: number): string[] {
  const member = `(SELECT id FROM users WHERE name = '${DEMO_MEMBER.name}')`;
  const out: string[] = [];
  for (const t of THREADS) {
    const last = now - Math.min(...t.lines.map((l) => l[2])) * 3600;
    out.push(
      `INSERT INTO conversations (user_id, show_id, pseudo_id, member_pseudo, last_message_at, created_at) SELECT ${member}, ${t.showId}, 0, ${esc(t.pseudo)}, ${last}, ${now - 100 * 3600}`,
    );
    const conv = `(SELECT id FROM conversations WHERE user_id = ${member} AND show_id = ${t.showId} AND pseudo_id = 0)`;
    for (const [author, body, hours, read] of t.lines) {
      const readMember = author === 'member' || read ? 1 : 0;
      const readSide = author !== 'member' || read ? 1 : 0;
      out.push(
        `INSERT INTO messages (conversation_id, user_id, show_id, author, body, created_at, read_member, read_side) SELECT ${conv}, ${member}, ${t.showId}, '${author}', ${esc(body)}, ${now - hours * 3600}, ${readMember}, ${readSide}`,
      );
    }
  }
  return out;
}
