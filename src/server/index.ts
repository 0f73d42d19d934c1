import { createApp } from './app';

export { LobbyHub } from './realtime/hub';
export { Lobby } from './realtime/lobby';

export default createApp();
