import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { GamePage } from '../../../client/features/game/game-page';
import type { AppEnv } from '../../env';
import { renderPage } from '../../render/render-page';
import { gameState } from './game.routes';

/** /game: visitors see the wheel with a call to log in; members today's state. */
export const gamePages = new Hono<AppEnv>().get('/', async (c) => {
  const t = c.get('t');
  const user = c.get('user');
  const state = user ? await gameState(c.env.DB, user.id) : null;
  const url = new URL(c.req.url);
  return renderPage(
    c,
    <Layout breadcrumbs={[{ label: t('game.title') }]}>
      <GamePage wheel={{ state, member: user !== null, verified: user?.is_verified === true }} />
    </Layout>,
    { title: `${t('game.title')} – ${t('common.brand')}`, description: t('game.lead'), canonical: `${url.origin}/game` },
  );
});
