import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { ErrorPage, errorPageKind } from '../../client/shell/error-page';
import { Layout } from '../../client/shell/layout';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { fieldErrors } from '../lib/validation';
import { renderPage } from './render-page';

// What the app answers when a route fails or none matches: JSON under /api, an error page elsewhere.

export function isApi(c: Context<AppEnv>): boolean {
  return c.req.path === '/api' || c.req.path.startsWith('/api/');
}

function errorPage(c: Context<AppEnv>, status: ContentfulStatusCode): Response {
  const t = c.get('t');
  const title = t(`errorPage.${errorPageKind(status)}.title`);
  return renderPage(
    c,
    <Layout>
      <ErrorPage status={status} />
    </Layout>,
    { title: `${title} – ${t('common.brand')}`, robots: 'noindex' },
    status,
  );
}

export const notFound: NotFoundHandler<AppEnv> = (c) => {
  if (isApi(c)) return c.json({ message: 'not_found' }, 404);
  // Middleware may not have run for this path (e.g. a static miss): make sure the page can render.
  return c.get('t') ? errorPage(c, 404) : c.text('This page could not be found', 404);
};

export const onError: ErrorHandler<AppEnv> = (err, c) => {
  let status = 500;
  let body: { message: string; errors?: Record<string, string[]> } = { message: 'server_error' };
  const headers: Record<string, string> = {};
  if (err instanceof ApiError) {
    status = err.status;
    body = { ...err.extra, ...(err.errors ? { message: err.message, errors: err.errors } : { message: err.message }) };
    Object.assign(headers, err.headers);
  } else if (err instanceof z.ZodError) {
    status = 422;
    body = { message: 'validation_failed', errors: fieldErrors(err) };
  } else if (err instanceof HTTPException) {
    // Malformed bodies are the client's fault: a 422, never a 5xx.
    status = err.status === 400 ? 422 : err.status;
    body = { message: status === 422 ? 'invalid_body' : 'http_error' };
  } else {
    console.error(JSON.stringify({ type: 'server_error', requestId: c.get('requestId'), error: String(err), stack: (err as Error)?.stack }));
  }
  if (isApi(c) || !c.get('t')) return c.json(body, status as 500, headers);
  // A page keeps the status of a client error (413, 419, 422, ...): only our faults are 5xx.
  return errorPage(c, (status >= 400 && status < 600 ? status : 500) as ContentfulStatusCode);
};
