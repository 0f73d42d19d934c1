import { Hono, type Context } from 'hono';
import type { ReactNode } from 'react';
import { Layout } from '../../../client/shell/layout';
import { FailedPage, InvalidPage, SandboxPage } from '../../../client/features/avs/avs-pages';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { renderPage } from '../../render/render-page';
import { safeRedirect } from '../../../shared/safe-redirect';
import { ensureSession } from '../session/session.service';
import { AVS_STATE_TTL_S, avsProvider, makeState, readState, resultSignature } from './provider';
import { publishToUser } from '../../realtime/shards';
import { markAgeChecked } from './avs.repo';

// /avs starts an age check, /avs/sandbox simulates one, /avs/callback records the answer.

function kjmOf(value: string | undefined): boolean {
  return value === '1';
}

function avsHref(kjm: boolean, target: string, failed = false): string {
  const q = new URLSearchParams({ kjm: kjm ? '1' : '0', target });
  if (failed) q.set('failed', '1');
  return `/avs?${q.toString()}`;
}

function page(c: Context<AppEnv>, titleKey: string, body: ReactNode, status: 200 | 400 = 200): Response {
  const t = c.get('t');
  const res = renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('avs.breadcrumb') }]}>{body}</Layout>,
    { title: `${t(titleKey)} – ${t('common.brand')}`, robots: 'noindex' },
  );
  if (status === 200) return res;
  return new Response(res.body, { status, headers: res.headers });
}

const invalid = (c: Context<AppEnv>) => page(c, 'avs.invalid.title', <InvalidPage />, 400);

export const avsPages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const kjm = kjmOf(c.req.query('kjm'));
    const target = safeRedirect(c.req.query('target'), c.req.url);
    if (c.req.query('failed') === '1') {
      return page(c, 'avs.failed.title', <FailedPage retryHref={avsHref(kjm, target)} target={target} />);
    }
    const sid = await ensureSession(c);
    const state = await makeState(c.env, { sid, target, exp: nowSeconds() + AVS_STATE_TTL_S, kjm });
    const returnUrl = `${new URL(c.req.url).origin}/avs/callback`;
    return avsProvider(c.env).start(c, { state, returnUrl, kjm });
  })
  .get('/sandbox', async (c) => {
    const token = c.req.query('state');
    const state = await readState(c.env, token, nowSeconds());
    if (!token || !state) return invalid(c);
    const href = async (result: 'pass' | 'fail') => {
      const q = new URLSearchParams({ state: token, result, sig: await resultSignature(c.env, token, result) });
      return `/avs/callback?${q.toString()}`;
    };
    return page(c, 'avs.sandbox.title', <SandboxPage passHref={await href('pass')} failHref={await href('fail')} kjm={state.kjm} />);
  })
  .get('/callback', async (c) => {
    const answer = await avsProvider(c.env).verifyCallback(c);
    if (!answer) return invalid(c);
    const state = await readState(c.env, answer.state, nowSeconds());
    // Only the browser session that started the check may complete it.
    if (!state || state.sid !== c.get('sessionId')) return invalid(c);
    // The state is signed, but a target stored before this check existed is checked again.
    const target = safeRedirect(state.target, c.req.url);
    if (!answer.passed) return c.redirect(avsHref(state.kjm, target, true), 302);
    const user = c.get('user');
    await markAgeChecked(c.env.DB, state.sid, user?.id ?? null);
    // The member's other open pages learn it at once.
    if (user) c.executionCtx.waitUntil(publishToUser(c.env, user.id, { type: 'user:avs', agechecked: true }).catch(() => undefined));
    return c.redirect(target, 302);
  });
