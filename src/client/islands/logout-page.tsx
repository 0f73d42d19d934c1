import { useEffect, useRef, useState } from 'react';
import { go } from '../components/auth/auth-actions';
import { Spinner } from '../components/auth/ui';
import { api } from '../lib/api';
import { useStore, useT } from '../state/context';

/** /logout: posts auth/logout on load, forgets the member and goes home. */
export default function LogoutPage() {
  const store = useStore();
  const t = useT();
  const [done, setDone] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api()
      .post('auth/logout')
      .catch(() => undefined)
      .finally(() => {
        store.user = null;
        store.registerEmail = null;
        setDone(true);
        go('/');
      });
  }, [store]);

  return (
    <p className="auth-working" role="status" data-state={done ? 'done' : 'working'}>
      {!done && <Spinner />} {t(done ? 'auth.logout.done' : 'auth.logout.working')}
    </p>
  );
}
