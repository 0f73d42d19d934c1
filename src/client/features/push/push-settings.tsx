import { useEffect, useState } from 'react';
import { PUSH_KINDS, type PushKind } from '../../../shared/push';
import { showSnackbar } from '../../state/actions';
import { useStore, useT } from '../../state/context';
import { currentState, PushUnavailable, setKinds, turnOff, turnOn, type PushState } from './push-browser';

/**
 * Push notifications on this device (the profile's settings): off until the member presses the
 * button, which is when the browser asks for permission; then a switch per kind.
 */
export function PushSettings() {
  const store = useStore();
  const t = useT();
  const [state, setState] = useState<PushState>({ status: 'checking' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    currentState()
      .then(setState)
      .catch(() => setState({ status: 'off' }));
  }, []);

  // While busy the switches are aria-disabled, not disabled: a disabled control drops the keyboard focus to the body.
  async function run(work: () => Promise<PushState>, done?: string) {
    if (busy) return;
    setBusy(true);
    try {
      const next = await work();
      setState(next);
      if (done) showSnackbar(store, done);
    } catch (e) {
      showSnackbar(store, t(e instanceof PushUnavailable ? 'profile.settings.push.unavailable' : 'profile.settings.push.failed'));
    } finally {
      setBusy(false);
    }
  }

  const text = (key: string) => t(`profile.settings.push.${key}`);
  return (
    <div className="pf-push" data-testid="push-settings" data-state={state.status}>
      <p className="muted">{text('intro')}</p>
      {state.status === 'unsupported' && <p role="status">{text('unsupported')}</p>}
      {state.status === 'denied' && <p role="status">{text('denied')}</p>}
      {(state.status === 'off' || state.status === 'checking') && (
        <button type="button" className="btn btn-primary" disabled={busy || state.status === 'checking'} onClick={() => run(turnOn)} data-action="push-on">
          {text('turnOn')}
        </button>
      )}
      {state.status === 'on' && (
        <>
          <p role="status">{text('on')}</p>
          <fieldset className="pf-push-kinds">
            <legend>{text('kinds')}</legend>
            {PUSH_KINDS.map((kind: PushKind) => (
              <label className="pf-switch" key={kind}>
                <input
                  type="checkbox"
                  role="switch"
                  checked={state.kinds[kind]}
                  aria-disabled={busy || undefined}
                  onChange={() => run(() => setKinds(state.endpoint, { [kind]: !state.kinds[kind] }), text('saved'))}
                  data-testid={`push-kind-${kind}`}
                />
                <span className="pf-switch-track" aria-hidden="true" />
                <span>{text(kind)}</span>
              </label>
            ))}
          </fieldset>
          <button type="button" className="btn btn-outline" disabled={busy} onClick={() => run(() => turnOff(state.endpoint), text('offDone'))} data-action="push-off">
            {text('turnOff')}
          </button>
        </>
      )}
    </div>
  );
}
