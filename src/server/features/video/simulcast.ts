// Simulcast as the Realtime SFU takes it (docs/issue-28-plan.md A): the publisher's offer alone
// declares its layers (`a=simulcast:send f;h;q` and an `a=rid:X send` line for each); a pull, and
// a later switch with tracks/update, names the layer the viewer prefers and what the SFU does when
// that one is not available.

/** The simulcast part of a remote track in tracks/new (pull) and tracks/update (switch). */
export interface SimulcastPull {
  preferredRid: string;
  priorityOrdering: 'none' | 'asciibetical';
  ridNotAvailable: 'none' | 'asciibetical';
}

/**
 * The RIDs each sending video m-section of an offer sends, by mid (sections without simulcast are
 * absent). A RID counts when it is both in the `a=simulcast` send list (alternatives and paused
 * `~` entries included) and declared `a=rid:X send`, as RFC 8853 requires.
 */
export function offerRids(sdp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    if (!section.startsWith('video')) continue;
    const mid = /\r?\na=mid:([^\r\n]+)/.exec(section)?.[1];
    const list = /\r?\na=simulcast:(?:[^\r\n]*\s)?send\s+([^\s\r\n]+)/.exec(section)?.[1];
    if (!mid || !list) continue;
    const declared = new Set([...section.matchAll(/\r?\na=rid:([^\s]+)\s+send\b/g)].map((m) => m[1]));
    const rids = [...new Set(list.split(/[;,]/).map((r) => r.replace(/^~/, '')))].filter((r) => declared.has(r));
    if (rids.length) out.set(mid, rids);
  }
  return out;
}

/** The layer a pull starts on: the first in ASCII order (f, the full resolution, with f;h;q). */
export const preferredRid = (rids: string[]): string => [...rids].sort()[0];

/**
 * A pull or switch to `rid`; if the publisher does not send it now (a layer the browser dropped
 * for bandwidth or CPU), the SFU takes the next in ASCII order rather than nothing.
 */
export function simulcastPull(rid: string): SimulcastPull {
  return { preferredRid: rid, priorityOrdering: 'asciibetical', ridNotAvailable: 'asciibetical' };
}
