import { anonymousWrite } from '../../lib/limits';

/** Session writes (splash, visitor id, welcome, countdown) per client address and hour: a visitor makes a few. */
const SESSION_WRITES_PER_ADDRESS = 300;
const SESSION_BODY_MAX = 4 * 1024;
export const sessionWrite = anonymousWrite('session', SESSION_WRITES_PER_ADDRESS, SESSION_BODY_MAX);
