import { useEffect, useId, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { useT } from '../../state/context';
import { errorText } from '../../ui/error-text';

// Broadcasting from OBS (issue 28): where OBS sends (the WHIP server URL of this show) and the
// stream key, made here and shown once (only its hash is kept); a new key replaces the old at once.

interface StreamKeyInfo {
  server: string;
  exists: boolean;
  createdAt: number | null;
  key?: string;
}

/** A read-only field with a copy button (the text is selected too, for browsers without a clipboard). */
function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false); // selected: the performer copies it by hand
    }
  };
  return (
    <div className="studio-obs-field">
      <label htmlFor={id}>{label}</label>
      <span className="studio-obs-copy">
        <input id={id} ref={input} readOnly value={value} data-testid={testId} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <button type="button" className="btn btn-outline btn-small" data-testid={`${testId}-copy`} onClick={() => void copy()}>
          {copied ? t('studio.obs.copied') : t('studio.obs.copy')}
        </button>
      </span>
    </div>
  );
}

export function StudioObs() {
  const t = useT();
  const headId = useId();
  const [info, setInfo] = useState<StreamKeyInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api()
      .get<StreamKeyInfo>('studio/stream-key')
      .then(setInfo, (e: Error) => setError(e.message || 'unknown_error'));
  }, []);

  const make = async () => {
    if (busy || (info?.exists && !window.confirm(t('studio.obs.confirmNew')))) return;
    setBusy(true);
    setError(null);
    try {
      setInfo(await api().post<StreamKeyInfo>('studio/stream-key'));
    } catch (e) {
      setError((e as Error).message || 'unknown_error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="studio-card studio-obs" aria-labelledby={headId} data-testid="studio-obs">
      <h2 id={headId}>{t('studio.obs.title')}</h2>
      <p className="small muted">{t('studio.obs.intro')}</p>
      {!info && !error && <p className="small muted" role="status">{t('studio.loading')}</p>}
      {info && (
        <>
          <CopyField label={t('studio.obs.server')} value={info.server} testId="obs-server" />
          {info.key ? (
            <>
              <CopyField label={t('studio.obs.key')} value={info.key} testId="obs-key" />
              <p className="small" role="status" data-testid="obs-key-once">
                {t('studio.obs.keyOnce')}
              </p>
            </>
          ) : (
            <p className="small" data-testid="obs-key-state">
              {info.createdAt ? t('studio.obs.keyMade', { date: new Date(info.createdAt * 1000).toLocaleDateString() }) : t('studio.obs.noKey')}
            </p>
          )}
          <button type="button" className="btn btn-outline" data-testid="obs-key-new" aria-disabled={busy || undefined} onClick={() => void make()}>
            {info.exists ? t('studio.obs.newKey') : t('studio.obs.makeKey')}
          </button>
          <ol className="studio-obs-steps small">
            <li>{t('studio.obs.step1')}</li>
            <li>{t('studio.obs.step2')}</li>
            <li>{t('studio.obs.step3')}</li>
            <li>{t('studio.obs.step4')}</li>
          </ol>
        </>
      )}
      {error && (
        <p className="studio-err small" role="alert" data-testid="obs-error">
          {errorText(t, error)}
        </p>
      )}
    </section>
  );
}
