import { Island } from '../../ui/island';
import GameWheel, { type GameWheelProps } from './game-wheel.island';
import { useT } from '../../state/context';
import { PageHeader } from '../../ui/page-header';

/** /game: the daily game with its wheel (an island) and the rules. */
export function GamePage({ wheel }: { wheel: GameWheelProps }) {
  const t = useT();
  return (
    <section className="game-page" data-testid="game-page">
      <PageHeader title={t('game.title')} lead={t('game.lead')} />
      <Island name="GameWheel" component={GameWheel} props={wheel} />
      <section className="game-rules" aria-labelledby="game-rules-h">
        <h2 id="game-rules-h">{t('game.rules.title')}</h2>
        <ul>
          <li>{t('game.rules.once')}</li>
          <li>{t('game.rules.prizes')}</li>
          <li>{t('game.rules.members')}</li>
          <li>{t('game.rules.coins')}</li>
        </ul>
      </section>
    </section>
  );
}
