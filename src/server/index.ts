import { createApp } from './app';

export { LobbyHub } from './realtime/hub';
export { Lobby } from './realtime/lobby';
export { ShowRoom } from './features/chat/room/show-room';

export default createApp();
