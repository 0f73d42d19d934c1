import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { OpenTypes } from '../../../shared/chat';
import { exclusiveActive } from '../../../shared/shows';
import { Icon } from '../../ui/icon';
import { useStore, useT } from '../../state/context';
import { connectStudio, disconnectStudio, loadStudio, setStatus } from './studio-state';
import { StudioChat, StudioEarnings, StudioPeople, StudioPrivate, StudioRequests } from './studio-parts';
import { StudioUploads } from './studio-uploads';
import { StudioPayouts } from './studio-payouts';
import { StudioCoPerformers } from './studio-co-performers';
import { StudioGeo } from './studio-geo';
import { StudioChatSafety } from './studio-chat-safety';
import { StudioVideo } from './studio-video';
import { StudioObs } from './studio-obs';
import { StudioTips } from './studio-tips';
import { InboxPanel } from '../messages/inbox-panel';

const OPEN_KEYS: (keyof OpenTypes)[] = ['free', 'private', 'exclusive', 'voyeur'];

/** Free chat and exclusive are offered only where the show's catalogue entry allows them (as the room's start rules say). */
function catalogueAllows(flags: { free: boolean; exclusive: number } | undefined, k: keyof OpenTypes): boolean {
  if (!flags) return true;
  if (k === 'free') return flags.free;
  if (k === 'exclusive') return exclusiveActive(flags.exclusive);
  return true;
}

/** The performer's studio: status, switches, requests, private, room chat, people, earnings, uploads. */
export default function Studio() {
  const t = useT();
  const s = useSnapshot(useStore().studio);

  useEffect(() => {
    void loadStudio().then(() => connectStudio());
    return () => disconnectStudio();
  }, []);

  if (s.load === 'loading' && !s.info) {
    return (
      <p className="studio-loading muted" role="status" data-testid="studio-loading">
        {t('studio.loading')}
      </p>
    );
  }
  if (!s.info) {
    return (
      <div className="studio-error" role="alert" data-testid="studio-error">
        <p>{t('studio.loadError')}</p>
        <button type="button" className="btn btn-outline" onClick={() => void loadStudio().then(() => connectStudio())}>
          {t('studio.retry')}
        </button>
      </div>
    );
  }
  const { show, status } = s.info;
  const state = !status.online ? 'offline' : status.paused ? 'paused' : 'online';

  return (
    <div className="studio" data-testid="studio" data-state={state} data-connected={s.connected ? '1' : '0'}>
      <header className="studio-head">
        <div>
          <h1 className="studio-title">{t('studio.title', { name: show.name })}</h1>
          <p className="studio-state-line">
            <span className={`status-badge ${state === 'online' ? 'online' : 'offline'}`} data-testid="studio-state">
              <span className="dot" aria-hidden="true" />
              {t(`studio.state.${state}`)}
            </span>
            <span className={s.connected ? 'studio-conn ok small' : 'studio-conn small muted'} data-testid="studio-conn" aria-live="polite">
              {s.connected ? t('studio.connected') : t('studio.reconnecting')}
            </span>
            {s.connected && (
              <span className="small muted" data-testid="studio-viewers">
                <Icon name="person" size={14} /> {t('studio.viewers', { count: s.participants.filter((p) => p.role !== 'performer').length })}
              </span>
            )}
          </p>
          {s.info.stop && !status.online && (
            <p className="form-error studio-stopped" role="alert" data-testid="studio-stopped">
              {t('studio.stopped', { reason: s.info.stop.reason })}
            </p>
          )}
        </div>
        <div className="studio-actions">
          <button
            type="button"
            className={status.online ? 'btn btn-outline' : 'btn btn-primary'}
            data-testid="studio-online"
            aria-pressed={status.online}
            disabled={s.busy !== null}
            onClick={() => void setStatus({ online: !status.online }, 'online')}
          >
            {status.online ? t('studio.goOffline') : t('studio.goOnline')}
          </button>
          <button
            type="button"
            className="btn btn-outline"
            data-testid="studio-pause"
            aria-pressed={status.paused}
            disabled={s.busy !== null || !status.online}
            onClick={() => void setStatus({ paused: !status.paused }, 'paused')}
          >
            {status.paused ? t('studio.resume') : t('studio.pause')}
          </button>
        </div>
      </header>
      {s.error && (
        <p className="studio-err small" role="alert" data-testid="studio-err">
          {t('studio.actionError', { code: s.error })}
        </p>
      )}
      <fieldset className="studio-card studio-open" disabled={s.busy !== null}>
        <legend>{t('studio.open.title')}</legend>
        <div className="studio-switches">
          {OPEN_KEYS.map((k) => {
            // A switch the catalogue refuses opens nothing (the room refuses that chat): shown off, with the reason.
            const allowed = catalogueAllows(show.flags, k);
            return (
              <label key={k} className={allowed ? 'studio-switch' : 'studio-switch studio-switch-refused'}>
                <input
                  type="checkbox"
                  role="switch"
                  data-open={k}
                  checked={allowed && status.open[k]}
                  disabled={!allowed}
                  aria-describedby={allowed ? undefined : `studio-refused-${k}`}
                  onChange={(e) => void setStatus({ open: { ...status.open, [k]: e.target.checked } }, `open-${k}`)}
                />
                <span>{t(`studio.open.${k}`)}</span>
                {!allowed && (
                  <small id={`studio-refused-${k}`} className="muted" data-testid={`studio-refused-${k}`}>
                    {t('studio.open.refused')}
                  </small>
                )}
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="studio-grid">
        <div className="studio-main">
          <StudioVideo />
          <StudioObs />
          <StudioRequests />
          <StudioPrivate />
          <StudioChat />
        </div>
        <aside className="studio-side">
          <StudioPeople />
          <StudioTips />
          <StudioEarnings />
          <StudioPayouts />
          <StudioCoPerformers />
          <StudioGeo />
          <StudioChatSafety />
        </aside>
      </div>
      <InboxPanel side="studio" />
      <StudioUploads />
    </div>
  );
}
