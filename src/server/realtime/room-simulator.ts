// Local development only (SIMULATOR=1, ENVIRONMENT=development): the lines the simulated
// performer of a demo show answers with. Neutral on purpose; chat content, not interface text.
const LINES = [
  'Hi, nice to see you here!',
  'Thanks for the message :)',
  'How is your day going?',
  'Good question, let me think.',
  'Welcome to my room!',
  'Schön, dass du da bist!',
  'Danke für die Nachricht :)',
];

export function cannedLine(n: number): string {
  return LINES[Math.abs(n) % LINES.length];
}
