import { Fragment, type ReactNode } from 'react';

/**
 * A translated text with inline markup: `<name>inner</name>` parts are rendered by the given
 * renderers (links, buttons), the rest stays text.
 */
export function Rich({ text, parts }: { text: string; parts: Record<string, (inner: string) => ReactNode> }) {
  const out: ReactNode[] = [];
  const re = /<(\w+)>(.*?)<\/\1>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const render = parts[m[1]];
    out.push(<Fragment key={m.index}>{render ? render(m[2]) : m[2]}</Fragment>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}

/** Link renderers for Rich. */
export const link = (href: string, opts: { newTab?: boolean } = {}) =>
  function RichLink(inner: string) {
    return (
      <a href={href} {...(opts.newTab ? { target: '_blank', rel: 'noopener' } : {})}>
        {inner}
      </a>
    );
  };
