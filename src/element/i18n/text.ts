/**
 * Filling a message, and the sentence for an error code: what the views (loaded on demand) need of
 * the language machinery, kept apart from index.ts and its table loaders.
 */
import type { Messages } from './types.js';

/** Replaces `{name}` placeholders; unknown names stay as written. */
export function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => String(params[name] ?? m));
}

/**
 * The sentence for an error code: the table's (every code of the protocol has one), else (a code of a
 * newer server) the one of an internal error, else (only the offline messages at hand) the default.
 * The server's `message` is for developers (the `paydesk-error` event); it is never shown.
 */
export function errorText(m: Messages, code: string): string {
  const errors = m.errors as Record<string, string | undefined>;
  return errors[code] ?? errors.internal_error ?? m.errors.default;
}
