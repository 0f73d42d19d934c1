import type { ReactNode } from 'react';
import type { EmbeddedState, PageMessageKey } from '../../shared/state';
import { builtAssets } from './assets';

export interface Head {
  title: string;
  description?: string;
  canonical?: string;
  robots?: string;
  /** Locale groups beyond every page's that this page's islands use (embedded with the state). */
  texts?: readonly PageMessageKey[];
}

const THEME_COLOR: Record<EmbeddedState['layout'], string> = {
  redhot: '#b3001b',
  greenhorn: '#1b7f4c',
  'black-white': '#111111',
  'blue-valvet': '#1f3b8f',
  greyhound: '#4a5563',
  'pink-pussy': '#c2185b',
};

/** Escapes JSON for a <script> data block: no "</script>" or "<!--" can end it early. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Paint first, then load and start: the entry (React and the islands, the largest download after
 * the document and the largest task of a load) is requested after the frame that shows the page
 * with its largest picture (the tile or poster marked fetchpriority="high"; at most a second's
 * wait for it). Fetched earlier, it takes the picture's bandwidth on a slow network, and whenever it
 * arrives before the parser is done (a fast network, a slow phone) it is evaluated before the first
 * paint. Until it runs, links and the no-script forms work as they are. Its URL is the hashed one
 * the lazy chunks import (a second URL would evaluate it twice).
 */
function startScript(entry: string): string {
  return `let s=0;const go=()=>{if(s++)return;requestAnimationFrame(()=>setTimeout(()=>import(${JSON.stringify(entry)})))};const i=document.querySelector('img[fetchpriority=high]');if(i&&!i.complete){i.addEventListener('load',go);i.addEventListener('error',go);setTimeout(go,1000)}else go()`;
}

export function Document({
  head,
  state,
  stateJson,
  nonce,
  dev,
  children,
}: {
  head: Head;
  state: EmbeddedState;
  /** The state script's content (render-page fills it in after the render). */
  stateJson: string;
  nonce: string;
  dev: boolean;
  children: ReactNode;
}) {
  // Hashed names (immutable); the stylesheet inline, so the first paint waits on no request.
  const assets = builtAssets();
  return (
    <html lang={state.locale} data-layout={state.layout} className={state.headerHidden ? 'no-header' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        {head.description && <meta name="description" content={head.description} />}
        {head.robots && <meta name="robots" content={head.robots} />}
        {head.canonical && <link rel="canonical" href={head.canonical} />}
        <meta name="theme-color" content={THEME_COLOR[state.layout]} />
        <meta name="rating" content="adult" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The installable web app (issue 30 point 5): its manifest and the home-screen icon of iOS. */}
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/static/icons/icon-192.png" />
        {dev ? (
          <>
            {/* Vite's client gives the styles it injects this nonce (else the CSP refuses them). */}
            <meta property="csp-nonce" nonce={nonce} />
            <script type="module" src="/@vite/client" nonce={nonce} />
          </>
        ) : assets.cssText === null ? (
          <link rel="stylesheet" href={assets.css} />
        ) : (
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: assets.cssText }} />
        )}
      </head>
      <body>
        {children}
        <script id="__state" type="application/json" dangerouslySetInnerHTML={{ __html: stateJson }} />
        <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: startScript(dev ? '/src/client/main.ts' : assets.js) }} />
      </body>
    </html>
  );
}
