import { Hono } from 'hono';
import { Layout } from '../../../client/shell/layout';
import { ContestPage, ContestLatestPage } from '../../../client/features/contest/contest-page';
import type { Contest, ContestVote } from '../../../shared/contest';
import type { AppEnv } from '../../env';
import { nowSeconds } from '../../lib/clock';
import { renderPage } from '../../render/render-page';
import { withoutHiddenEntries } from './contest.routes';
import { latestContestId, latestContest, memberVotes, runningContest } from './contest.repo';

/** A failed load is an empty state (no contest, no votes), never an error page (spec section 8). */
async function orEmpty<T>(load: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await load();
  } catch (e) {
    console.error(JSON.stringify({ type: 'contest_load_failed', error: String(e) }));
    return empty;
  }
}

/** /contest (the running round: ranking, votes, countdown) and /contest/latest (the last result). */
export const contestPages = new Hono<AppEnv>()
  .get('/', async (c) => {
    const t = c.get('t');
    const user = c.get('user');
    const db = c.env.DB;
    const now = nowSeconds();
    const contest = withoutHiddenEntries(await orEmpty<Contest | null>(() => runningContest(db, c.get('locale'), now), null), await c.var.hiddenShows());
    const votes = contest && user ? await orEmpty<ContestVote[]>(() => memberVotes(db, user.id, now), []) : [];
    const latest = await orEmpty(() => latestContestId(db, now), null);
    const url = new URL(c.req.url);
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: t('contest.title') }]}>
        <ContestPage board={{ contest, votes, member: user !== null }} hasLatest={latest !== null} />
      </Layout>,
      { title: `${t('contest.title')} – ${t('common.brand')}`, description: t('contest.lead'), canonical: `${url.origin}/contest`, texts: ['contest'] },
    );
  })
  .get('/latest', async (c) => {
    const t = c.get('t');
    const contest = withoutHiddenEntries(await orEmpty<Contest | null>(() => latestContest(c.env.DB, c.get('locale'), nowSeconds()), null), await c.var.hiddenShows());
    const url = new URL(c.req.url);
    return renderPage(
      c,
      <Layout breadcrumbs={[{ label: t('contest.title'), href: '/contest' }, { label: t('contest.latest.title') }]}>
        <ContestLatestPage contest={contest} />
      </Layout>,
      { title: `${t('contest.latest.title')} – ${t('common.brand')}`, description: t('contest.latest.lead'), canonical: `${url.origin}/contest/latest` },
    );
  });
