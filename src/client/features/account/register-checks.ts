import { useEffect, useRef, useState } from 'react';
import { MAILCHECK_DEBOUNCE_MS, VOUCHER_DEBOUNCE_MS, VOUCHER_MIN_CHARS } from '../../../shared/constants';
import type { TFunction } from '../../../shared/translate';
import { api, ApiFailure } from '../../lib/api';
import { bodyMessage, fieldCodes } from '../../ui/api-failure';
import { errorText } from '../../ui/error-text';

// The registration form's checks while typing: the e-mail address's typo suggestion and the voucher.

export type Voucher = { state: 'idle' } | { state: 'checking' } | { state: 'valid'; code: string; text: string } | { state: 'invalid'; error: string };

/** Mail typo check, 250 ms after typing stops: a suggested address, or null. */
export function useMailSuggestion(email: string) {
  const [suggestion, setSuggestion] = useState<string | null>(null);
  useEffect(() => {
    setSuggestion(null);
    const value = email.trim();
    const at = value.lastIndexOf('@');
    if (at < 1 || !value.slice(at + 1).includes('.')) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      api()
        .get<{ suggestion: string | null }>('register/mailcheck', { email: value }, ctrl.signal)
        .then((res) => setSuggestion(res.suggestion && res.suggestion !== value ? res.suggestion : null))
        .catch(() => undefined);
    }, MAILCHECK_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [email]);
  return [suggestion, setSuggestion] as const;
}

/** Voucher check: 1 s after typing stops, at once on load when prefilled. `onCheck` runs at every change of the code. */
export function useVoucherCheck(code: string, t: TFunction, onCheck: () => void) {
  const [voucher, setVoucher] = useState<Voucher>({ state: 'idle' });
  const voucherSeq = useRef(0);
  const firstVoucherCheck = useRef(true);
  useEffect(() => {
    const value = code.trim();
    const seq = ++voucherSeq.current;
    const first = firstVoucherCheck.current;
    firstVoucherCheck.current = false;
    onCheck();
    if (!value || value.length < VOUCHER_MIN_CHARS) {
      setVoucher({ state: 'idle' });
      return;
    }
    const timer = setTimeout(
      () => {
        setVoucher({ state: 'checking' });
        api()
          .post<{ valid: true; coupon: { code: string; text: string } }>('register/coupon', { code: value })
          .then((res) => {
            if (seq === voucherSeq.current) setVoucher({ state: 'valid', code: res.coupon.code, text: res.coupon.text });
          })
          .catch((e: unknown) => {
            if (seq !== voucherSeq.current) return;
            const codeError = fieldCodes(e).code ?? (e instanceof ApiFailure && e.status === 422 ? bodyMessage(e) : null) ?? 'unknown_error';
            setVoucher({ state: 'invalid', error: errorText(t, codeError) });
          });
      },
      first ? 0 : VOUCHER_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
    // onCheck is the form's clearing of the code's error: a new function at each render, the same work.
  }, [code, t]);
  return [voucher, setVoucher] as const;
}
