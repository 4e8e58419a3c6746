/**
 * Resume after a reload: the session of an order lives in `sessionStorage` (this tab only), keyed
 * by endpoint and order ref, so a reload shows the same order instead of creating a second one.
 */

export interface StoredSession {
  session: string;
  /** `paydesk-paid` already fired for this session. */
  paid: boolean;
}

export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const PREFIX = 'paydesk:v1:';

export function storageKey(endpoint: string, orderRef: string): string {
  return `${PREFIX}${endpoint}|${orderRef}`;
}

/** `sessionStorage`, or null where it is missing or throws (sandboxed frames, some private modes). */
export function defaultStorage(): KeyValueStorage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

export function loadSession(storage: KeyValueStorage | null, key: string): StoredSession | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredSession>;
    return typeof v.session === 'string' && v.session !== '' ? { session: v.session, paid: v.paid === true } : null;
  } catch {
    return null;
  }
}

export function saveSession(storage: KeyValueStorage | null, key: string, value: StoredSession): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota or privacy mode: resuming is a convenience, never a reason to fail.
  }
}

export function forgetSession(storage: KeyValueStorage | null, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // see saveSession
  }
}
