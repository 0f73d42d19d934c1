import { useState } from 'react';
import type { ChatLine } from '../../../shared/chat';
import { MUTE_MINUTES } from '../../../shared/chat-safety';
import { useT } from '../../state/context';
import { moderate } from './chat-safety';

// A moderator's tools on another member's line (issue 30 point 4): mute for 5, 15 or 60 minutes,
// or remove from the free chat. The room decides whether it may (a paid chat it refuses).

export function ModTools({ line }: { line: ChatLine }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (line.role !== 'member' && line.role !== 'guest') return null;
  const act = (a: 'mute' | 'kick', minutes?: number) => {
    moderate(line.from, a, minutes);
    setOpen(false);
  };
  return (
    <span className="chat-mod">
      <button type="button" className="btn btn-text btn-small chat-mod-toggle" aria-expanded={open} aria-label={t('chat.safety.tools', { nick: line.nick })} data-testid="chat-mod-toggle" onClick={() => setOpen(!open)}>
        {t('chat.safety.moderate')}
      </button>
      {open && (
        <span className="chat-mod-menu" role="group" aria-label={t('chat.safety.tools', { nick: line.nick })} data-testid="chat-mod-menu">
          {MUTE_MINUTES.map((m) => (
            <button key={m} type="button" className="btn btn-outline btn-small" data-mute={m} onClick={() => act('mute', m)}>
              {t('chat.safety.mute', { count: m })}
            </button>
          ))}
          <button type="button" className="btn btn-outline btn-small" data-testid="chat-mod-kick" onClick={() => act('kick')}>
            {t('chat.safety.kick')}
          </button>
        </span>
      )}
    </span>
  );
}
