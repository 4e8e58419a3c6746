/**
 * One purchase, one order, in every tab of a browser. The session of an order lives in `localStorage`
 * (shared by the tabs of one site; `sessionStorage` where it is refused, nothing where both are),
 * keyed by endpoint and order ref, with an expiry, and beside it in the tab's own `sessionStorage`
 * (the record of the order this tab shows, same key and form):
 *   - a reload resumes the order this tab showed (its own record first): an order another tab made
 *     meanwhile for the same ref (after a reset) never replaces it on screen;
 *   - a second tab (no record of its own) resumes the shared order instead of creating another;
 *   - before `POST /sessions`, the attempt's `Idempotency-Key` (and what it asks for) is stored, so a
 *     second tab that starts meanwhile sends the same key and the server answers the same session;
 *     Web Locks (where the browser has them) make the check-and-store atomic across tabs, else the
 *     last write wins for both tabs after a short settling wait.
 * Storage is a convenience for resuming and coordinating, never a reason to fail: every access is
 * guarded. The claim before a create lives in claim.ts, loaded with the first create; how long a
 * record is kept and its removal, which only the element's own code does, in stored.ts.
 */
import type { KnownOrder, Selection } from './machine.js';

export interface StoredCheckout {
  /** The session of the order, once created. */
  session: string | null;
  /** `paydesk-paid` already fired for this session. */
  paid: boolean;
  /** The shopper said the order is paid ("I have paid"). */
  said?: boolean;
  /** The attempt to create under way (or whose answer was lost): its key and what it asks for. */
  attempt: { key: string; selection: Selection } | null;
  /** What the `gone` step can still say when the session is lost. */
  order: KnownOrder | null;
  /** Device time (ms) after which the record is ignored and removed. */
  exp: number;
}

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const PREFIX = 'paydesk:v2:';

export function storageKey(endpoint: string, orderRef: string): string {
  return `${PREFIX}${endpoint}|${orderRef}`;
}

function usable(get: () => Storage | undefined): KeyValueStorage | null {
  try {
    const s = get();
    if (!s) return null;
    const probe = `${PREFIX}probe`;
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

/** This tab's `sessionStorage`, else null. */
export const tabStorage = (): KeyValueStorage | null => usable(() => globalThis.sessionStorage);

/** `localStorage`, else `sessionStorage`, else null (sandboxed frames, some private modes, quota). */
export function defaultStorage(): KeyValueStorage | null {
  return usable(() => globalThis.localStorage) ?? tabStorage();
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' && v.length <= 4096 ? v : null);

function parseKnown(v: unknown): KnownOrder | null {
  const o = v as Partial<Record<keyof KnownOrder, unknown>> | null;
  const number = str(o?.number);
  return number ? { number, support: str(o?.support), back: str(o?.back) } : null;
}

/** An attempt as stored (or announced by a lock's name, claim.ts), checked; null when malformed. */
export function parseAttempt(v: unknown): StoredCheckout['attempt'] {
  const a = v as { key?: unknown; selection?: unknown } | null;
  const key = str(a?.key);
  const sel = a?.selection;
  if (!key || !sel || typeof sel !== 'object') return null;
  // Only the fields of a selection, as strings: a tampered record cannot put anything else in a request.
  const selection: Record<string, string> = {};
  for (const field of ['payment_method_id', 'method_type', 'nspk_code', 'customer_bank', 'button_name', 'mode']) {
    const value = str((sel as Record<string, unknown>)[field]);
    if (value) selection[field] = value;
  }
  return { key, selection: selection as Selection };
}

/** The stored record (null when absent, malformed or expired; an expired one is removed). */
export function loadCheckout(storage: KeyValueStorage | null | undefined, key: string, now: number): StoredCheckout | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as Record<string, unknown> | null;
    const exp = Number(v?.exp) || 0;
    const record: StoredCheckout = {
      session: str(v?.session),
      paid: v?.paid === true,
      said: v?.said === true,
      attempt: parseAttempt(v?.attempt),
      order: parseKnown(v?.order),
      exp,
    };
    if (exp <= now || (!record.session && !record.attempt)) {
      storage!.removeItem(key);
      return null;
    }
    return record;
  } catch {
    return null;
  }
}

export function saveCheckout(storage: KeyValueStorage | null | undefined, key: string, value: StoredCheckout): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: resuming is a convenience, never a reason to fail.
  }
}
