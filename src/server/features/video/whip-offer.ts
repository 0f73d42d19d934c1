// What RFC 9725 (WHIP) asks of an offer before anything is published: an SDP offer (else 400)
// with one video track and at most one audio track that the publisher sends, nothing else (else
// 422: no partially accepted answers). Checked in the worker, so a refused offer reaches neither
// the room nor the SFU.

export interface OfferProblem {
  status: 400 | 422;
  code: string;
}

export function whipOfferProblem(sdp: string): OfferProblem | null {
  if (!/^v=0\r?\n/.test(sdp) || !/\r?\no=/.test(sdp) || !/\r?\nm=/.test(sdp)) return { status: 400, code: 'whip.bad_sdp' };
  const sections = sdp.split(/\r?\nm=/).slice(1);
  let audio = 0;
  let video = 0;
  for (const section of sections) {
    const kind = /^(\w+) /.exec(section)?.[1];
    if (kind === 'audio') audio++;
    else if (kind === 'video') video++;
    else return { status: 422, code: 'whip.unsupported_media' };
    // A publisher sends: recvonly or inactive sections, or one asking us to open the DTLS connection, are not a publish.
    if (/\r?\na=(recvonly|inactive)\b/.test(section)) return { status: 422, code: 'whip.not_sending' };
    if (/\r?\na=setup:active\b/.test(section)) return { status: 422, code: 'whip.setup_active' };
    if (!/\r?\na=mid:\S/.test(section)) return { status: 400, code: 'whip.bad_sdp' };
  }
  if (video !== 1) return { status: 422, code: video === 0 ? 'whip.no_video' : 'whip.too_many_tracks' };
  if (audio > 1) return { status: 422, code: 'whip.too_many_tracks' };
  return null;
}
