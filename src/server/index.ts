import { createApp } from './app';

export { Lobby } from './realtime/lobby';

export default createApp();
