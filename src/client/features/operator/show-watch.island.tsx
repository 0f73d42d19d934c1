import { useEffect, useState } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { parseRoomEvents, type RoomEvent } from '../../../shared/chat';
import { showImageSrc } from '../../../shared/shows';
import { useT } from '../../state/context';
import { LineList } from '../chat/line-list';
import { reduceLines, type RoomLines } from '../chat/room-lines';
import { attachReceiver, detachReceiver, onReceiverEvent } from '../video/receiver';
import { iceSource } from '../video/rtc';
import { LiveVideo } from '../video/live-video';

// An operator watching a live show (issue 29 point 2): the show room's hidden watcher socket
// (GET /api/operator/shows/{id}/watch; the room decides what it may do, not this page). The video
// with the viewer's receiver and player, the public lines with the viewer's line list; no input:
// the room refuses any line from a watcher. The socket closes when the show goes offline: the
// watch has ended (no reconnect; a new watch is a new, audited start).

type Phase = 'connecting' | 'watching' | 'ended';

export default function ShowWatch({ showId, name }: { showId: number; name: string }) {
  const t = useT();
  const [lines] = useState(() => proxy<RoomLines>({ items: [], typing: null }));
  const snap = useSnapshot(lines);
  const [phase, setPhase] = useState<Phase>('connecting');
  const [viewers, setViewers] = useState<number | null>(null);

  useEffect(() => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/operator/shows/${showId}/watch`);
    let me = '';
    iceSource.url = () => `/api/operator/shows/${showId}/watch/ice?sid=${encodeURIComponent(me)}`;
    attachReceiver({ showId, send: (to, data) => ws.readyState === 1 && (ws.send(JSON.stringify({ t: 'signal', to, data })), true), creds: () => null });
    const onEvent = (e: RoomEvent) => {
      if (e.t === 'welcome') {
        me = e.me.id;
        setPhase('watching');
        setViewers(e.room.viewers);
      } else if (e.t === 'room') setViewers(e.room.viewers);
      if (reduceLines(lines, e, me)) return;
      onReceiverEvent(e);
    };
    ws.onmessage = (m) => {
      for (const e of typeof m.data === 'string' ? (parseRoomEvents(m.data) ?? []) : []) onEvent(e);
    };
    ws.onclose = () => {
      setPhase('ended');
      detachReceiver();
    };
    const ping = setInterval(() => ws.readyState === 1 && ws.send('ping'), 20_000);
    return () => {
      clearInterval(ping);
      ws.close(1000);
      detachReceiver();
      iceSource.url = null;
    };
  }, [showId]);

  return (
    <div className="operator-watch" data-testid="watch" data-phase={phase}>
      <p className="small muted" role="status" data-testid="watch-status">
        {phase === 'ended' ? t('operator.watch.ended') : phase === 'connecting' ? t('operator.watch.connecting') : t('operator.watch.unseen')}
        {phase === 'watching' && viewers !== null && <> · {t('operator.live.viewers', { count: viewers })}</>}
      </p>
      {phase !== 'ended' && <LiveVideo name={name} poster={showImageSrc(showId, 1, true)} />}
      <LineList items={snap.items} me={null} empty="operator.watch.noLines" testId="watch-lines" className="operator-watch-lines" />
    </div>
  );
}
