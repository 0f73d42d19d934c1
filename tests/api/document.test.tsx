import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { builtAssets } from '../../src/server/render/assets';
import { Document } from '../../src/server/render/document';
import type { EmbeddedState } from '../../src/shared/state';

// The document's head and start, in production (built names) and under Vite's dev server.
const state = { locale: 'en', layout: 'redhot', headerHidden: false } as EmbeddedState;
const render = (dev: boolean) =>
  renderToStaticMarkup(
    <Document head={{ title: 't' }} state={state} stateJson="{}" nonce="abc" dev={dev}>
      <main />
    </Document>,
  );

describe('document', () => {
  it('starts the entry from one script under the nonce, after the first paint, with no script or preload request before it', () => {
    const html = render(false);
    // The built entry's name once a page of this isolate read the manifest, else the bare name.
    const entry = builtAssets().js.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(html).toMatch(new RegExp(`<script type="module" nonce="abc">[^<]*requestAnimationFrame[^<]*import\\("${entry}"\\)`));
    expect(html).not.toMatch(/<script[^>]*src=|modulepreload/);
  });

  it('under Vite dev gives Vite the nonce for the styles it injects (else the CSP refuses them and the page is unstyled)', () => {
    const html = render(true);
    expect(html).toContain('<meta property="csp-nonce" nonce="abc"/>');
    expect(html).toContain('<script type="module" src="/@vite/client" nonce="abc">');
    expect(html).toContain('import("/src/client/main.ts")');
  });
});
