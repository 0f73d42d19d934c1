import { Island } from '../../ui/island';
import { useT } from '../../state/context';
import Studio from './studio.island';

/** The studio page: the studio for performers, a clear notice for everyone else. */
export function StudioPage({ performer }: { performer: boolean }) {
  const t = useT();
  if (!performer) {
    return (
      <section className="studio-none" data-testid="studio-not-performer">
        <h1>{t('studio.notPerformer.title')}</h1>
        <p className="muted">{t('studio.notPerformer.text')}</p>
        <p>
          <a className="btn btn-outline" href="/camgirl_werden">
            {t('studio.notPerformer.link')}
          </a>{' '}
          <a className="btn btn-text" href="/">
            {t('studio.notPerformer.home')}
          </a>
        </p>
      </section>
    );
  }
  return <Island name="Studio" component={Studio} props={{}} />;
}
