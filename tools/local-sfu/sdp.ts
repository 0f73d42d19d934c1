// The little SDP reading the stand-in needs: which m-sections an offer has (mid, kind, direction,
// the RIDs it sends for simulcast, its msid track id for `autoDiscover`). werift parses the rest.

export interface OfferedMedia {
  mid: string;
  kind: 'audio' | 'video' | 'application';
  direction: string;
  /** RIDs from `a=rid:X send` (simulcast layers), in the offer's order. */
  rids: string[];
  /** The track id of `a=msid:<stream> <track>`, if any. */
  msidTrack?: string;
}

export function offeredMedia(sdp: string): OfferedMedia[] {
  const sections = sdp.split(/\r?\n(?=m=)/).slice(1);
  return sections.map((section) => {
    const lines = section.split(/\r?\n/);
    const kind = (/^m=(\w+)/.exec(lines[0])?.[1] ?? 'application') as OfferedMedia['kind'];
    const attr = (name: string) => lines.filter((l) => l.startsWith(`a=${name}`)).map((l) => l.slice(name.length + 2));
    const direction = lines.map((l) => /^a=(sendrecv|sendonly|recvonly|inactive)$/.exec(l)?.[1]).find(Boolean) ?? 'sendrecv';
    const rids = attr('rid:')
      .map((v) => /^(\S+)\s+send\b/.exec(v)?.[1])
      .filter((r): r is string => !!r);
    const msidTrack = attr('msid:')[0]?.split(/\s+/)[1];
    return { mid: attr('mid:')[0]?.trim() ?? '', kind, direction, rids, ...(msidTrack ? { msidTrack } : {}) };
  });
}

/** A SessionDescription as the API carries it. */
export interface Description {
  type: 'offer' | 'answer';
  sdp: string;
}

export function isDescription(v: unknown, type?: Description['type']): v is Description {
  if (!v || typeof v !== 'object') return false;
  const d = v as Record<string, unknown>;
  return (d.type === 'offer' || d.type === 'answer') && typeof d.sdp === 'string' && d.sdp.length > 0 && (!type || d.type === type);
}
