/**
 * Keeping the API key out of everything the client lets go of: error messages, the provider's
 * messages it quotes, and the causes of network errors (fetch errors nest causes).
 */

/** Replaces every occurrence of the secret in a text with `[redacted]`. */
export type Redact = (text: string) => string;

export function redactorOf(secret: string): Redact {
  return (text) => text.split(secret).join('[redacted]');
}

/** A copy of a thrown value with the key removed from every message and stack (causes too, 3 deep). */
export function sanitize(err: unknown, redact: Redact, depth = 0): Error {
  if (!(err instanceof Error)) return new Error(redact(String(err)));
  const copy = new Error(redact(err.message));
  copy.name = err.name;
  copy.stack = redact(err.stack ?? `${err.name}: ${err.message}`);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  if (err.cause !== undefined && depth < 3) copy.cause = sanitize(err.cause, redact, depth + 1);
  return copy;
}
