import type { OpenTypes, Participant, RoomSnapshot, SessionView } from '../../../shared/chat';
import type { TagItem } from '../../../shared/api';
import type { StudioUploadsAnswer } from '../../../shared/uploads';
import type { RoomLines } from '../chat/room-lines';
import { emptyBoard, type TipsBoard } from '../chat/chat.slice';

// The studio slice of the root store: the performer's studio (studio-state.ts) and its uploads
// (uploads-state.ts). One studio per document; the room socket is a browser-only handle kept in
// studio-state.ts, not state.

export interface StatementRow {
  id?: string | number;
  ts?: number | string;
  created_at?: number | string;
  kind?: string;
  type?: string;
  reference?: string;
  ref?: string;
  /** The ledger's reason: chat (a minute) or tip. */
  reason?: string;
  nick?: string;
  coins?: number;
  amount?: number;
}

export interface StudioInfo {
  /** flags: what the show's catalogue entry allows (free chat, exclusive), whatever the switches say. */
  show: { id: number; name: string; universalId?: string; flags?: { free: boolean; exclusive: number } };
  status: { online: boolean; paused: boolean; open: OpenTypes };
  /** null until the server's ledger gives earnings. */
  earnings: { today: number; statement: StatementRow[] } | null;
  /** An operator stopped the show (issue 29): the reason, until it goes online again. */
  stop?: { reason: string; at: number } | null;
}

export interface StudioState extends RoomLines {
  load: 'loading' | 'ready' | 'error';
  info: StudioInfo | null;
  busy: string | null;
  error: string | null;
  connected: boolean;
  room: RoomSnapshot | null;
  participants: Participant[];
  sessions: Record<string, SessionView>;
  /** Session id of the private (or exclusive) conversation shown. */
  privateWith: string | null;
  warn: { sessionId: string; seconds: number } | null;
  /** The show's tip menu and goal as the room keeps them (studio-tips.tsx edits them). */
  tips: TipsBoard;
}

export type DeepReadonly<T> = { readonly [K in keyof T]: T[K] extends (infer U)[] ? readonly DeepReadonly<U>[] : T[K] extends object ? DeepReadonly<T[K]> : T[K] };
/** A job as a render snapshot sees it. */
export type JobView = DeepReadonly<Job>;

type Phase = 'idle' | 'preparing' | 'uploading' | 'finishing' | 'done' | 'failed';

export interface Job {
  phase: Phase;
  /** 0..1 of the bytes. */
  progress: number;
  /** An error code (studio.uploads.errors.*) and the server's field errors. */
  error: string | null;
  fields: Record<string, string[]>;
  title: string;
}

/** An idle upload job. */
export const job = (): Job => ({ phase: 'idle', progress: 0, error: null, fields: {}, title: '' });

export interface UploadsState {
  list: StudioUploadsAnswer | null;
  tags: TagItem[];
  video: Job;
  gallery: Job;
}

export interface StudioSlice {
  studio: StudioState;
  studioUploads: UploadsState;
}

export const studioSlice = (): StudioSlice => ({
  studio: {
    load: 'loading',
    info: null,
    busy: null,
    error: null,
    connected: false,
    room: null,
    participants: [],
    sessions: {},
    items: [],
    privateWith: null,
    typing: null,
    warn: null,
    tips: emptyBoard(),
  },
  studioUploads: { list: null, tags: [], video: job(), gallery: job() },
});
