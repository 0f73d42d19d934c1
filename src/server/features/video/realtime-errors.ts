import { VideoRelayError, type TrackError } from './video-relay';

// What the Realtime API's answers mean for us (error-codes as documented, docs/issue-28-plan.md A):
// the per-track codes a 200 can carry, and which failures count as done.

export interface ErrorFields {
  mid?: string;
  trackName?: string;
  errorCode?: string;
  errorDescription?: string;
}

/** Already closed is what we wanted: a close that finds the track gone is not a failure. */
export const ALREADY_CLOSED = 'close_track_error';
/** A pull of a track the SFU does not have (a publication collected after 30 s without media). */
export const TRACK_GONE = 'not_found_track_error';

/** 410 session_error: the session is dead (its connection gone past the reuse window); nothing flows on it. */
export function deadSession(e: unknown): boolean {
  return e instanceof VideoRelayError && e.detail.status === 410 && e.detail.errorCode === 'session_error';
}

/** Tracks of a 200 that carry an errorCode (except those `ignore` accepts). */
export function failedTracks(tracks: ErrorFields[] | undefined, ignore: (code: string) => boolean = () => false): TrackError[] {
  return (tracks ?? [])
    .filter((t) => t.errorCode && !ignore(t.errorCode))
    .map((t) => ({ mid: t.mid, trackName: t.trackName, errorCode: t.errorCode ?? '', errorDescription: t.errorDescription }));
}

/** Tracks refused inside a 200, as one typed error naming each. */
export function trackError(what: string, failed: TrackError[]): VideoRelayError {
  const list = failed.map((f) => `${f.trackName ?? f.mid}: ${f.errorCode}`).join(', ');
  return new VideoRelayError('track', `Realtime ${what} refused track(s): ${list}`, { trackErrors: failed });
}
