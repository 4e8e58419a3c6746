/**
 * The outside world of the element (its `env` property) and the browser's defaults. Its own module,
 * so the controllers and views that read it import neither the element nor each other.
 */
import { newIdempotencyKey } from './endpoint.js';
import type { Locks } from './claim.js';
import { systemClock, type Clock } from './countdown.js';
import type { Platform } from './platform.js';
import { defaultStorage, tabStorage, type KeyValueStorage } from './storage.js';

/** What the element needs from the outside world (the `env` property); tests replace parts of it. */
export interface CheckoutEnv {
  clock: Clock;
  /** Default: the browser's `fetch`. */
  fetch?: typeof fetch | undefined;
  EventSource: typeof EventSource | undefined;
  /** Sends receipts (upload progress needs it; `fetch` reports none); default the browser's. */
  XMLHttpRequest?: typeof XMLHttpRequest;
  storage: KeyValueStorage | null;
  /** This tab's own record of the order it shows (default `sessionStorage`): a reload resumes that one first. */
  tabStorage?: KeyValueStorage | null;
  /** Web Locks, so two tabs never create two orders at once: `navigator.locks` when not given; null: none. */
  locks?: Locks | null;
  navigate(url: string): void;
  copy(text: string): Promise<void>;
  /** The device kind (bank apps on a phone, a QR on a desktop); default: from the browser's user agent. */
  platform?: Platform;
  newKey(): string;
  /** Page visibility source for the live status and the bank-app fallback (default `document`). */
  document?: EventTarget & { readonly hidden: boolean };
  /** Receives `pageshow`, `pagehide` and `storage` (default: `window`). */
  window?: EventTarget;
}

/** The browser's outside world, with the parts `given` replacing it. */
export const withDefaults = (given: Partial<CheckoutEnv>): CheckoutEnv => ({
  clock: systemClock,
  EventSource: globalThis.EventSource,
  storage: defaultStorage(),
  tabStorage: tabStorage(),
  locks: (globalThis.navigator as { locks?: Locks } | undefined)?.locks ?? null,
  navigate: (url) => location.assign(url),
  copy: (text) => navigator.clipboard.writeText(text),
  newKey: newIdempotencyKey,
  ...given,
});
