import type { SimulcastRid, ViewerVideoState, VideoLayer, VideoRelayKind } from '../../../shared/video';
import type { CameraStatus, Device, Preset } from './camera';

// The video slice of the root store: the viewer's receiver (receiver.ts) and the performer's
// publisher (publisher.ts). The peer connections and the camera's stream are browser-only handles
// kept in those modules; the streams shown here are valtio refs (not proxied).

export type ReceiverPhase = 'idle' | 'connecting' | 'playing' | 'reconnecting' | 'unsupported';

export interface ReceiverState {
  /** What the room last said (null before it spoke). */
  state: ViewerVideoState | null;
  phase: ReceiverPhase;
  /** The remote stream (a ref: not proxied). */
  stream: MediaStream | null;
  /** The quality the viewer picked (Auto by default), the layer last asked for, and the layers there are (none: one quality). */
  quality: VideoLayer;
  layer: SimulcastRid | null;
  layers: SimulcastRid[];
}

export interface PublisherState {
  status: CameraStatus;
  cameras: Device[];
  mics: Device[];
  cameraId: string;
  micId: string;
  preset: Preset;
  camMuted: boolean;
  micMuted: boolean;
  /** We publish (the performer's browser sends to each viewer, or to the SFU). */
  live: boolean;
  /** The delivery as it is: peer to peer 'connected' while published; to the SFU, its connection's state. */
  link: PublishLink;
  relay: VideoRelayKind | null;
  /** Viewers connected, by session id (peer to peer). */
  peers: Record<string, RTCPeerConnectionState>;
  /** Viewers the room sends the video to (the SFU: the studio holds no connection per viewer). */
  receiving: number;
  /** The show's video comes from OBS over WHIP (the room says so), not this camera. */
  whip: boolean;
  preview: MediaStream | null;
}

export type PublishLink = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

export interface VideoSlice {
  receiver: ReceiverState;
  publisher: PublisherState;
}

export const videoSlice = (): VideoSlice => ({
  receiver: { state: null, phase: 'idle', stream: null, quality: 'auto', layer: null, layers: [] },
  publisher: {
    status: 'off',
    cameras: [],
    mics: [],
    cameraId: '',
    micId: '',
    preset: 'sd',
    camMuted: false,
    micMuted: false,
    live: false,
    link: 'idle',
    relay: null,
    peers: {},
    receiving: 0,
    whip: false,
    preview: null,
  },
});
