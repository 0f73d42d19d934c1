import type { EmbeddedState } from '../../src/shared/state';
import { visitorSession } from '../../src/shared/session';
import { createStore } from '../../src/client/state/store';

export function testStore(overrides: Partial<EmbeddedState> = {}) {
  return createStore({
    layout: 'redhot',
    headerHidden: false,
    locale: 'en',
    serverBuild: '0.1.0',
    session: visitorSession(),
    user: null,
    splashOpen: false,
    consentOpen: false,
    now: Date.now(),
    path: '/',
    supportEmail: 'support@test',
    exitUrl: 'about:blank',
    googleClientId: null,
    csrfToken: '',
    messages: {},
    ...overrides,
  });
}
