/**
 * Creates sent at most once per call. After a lost answer (network error, timeout, an ambiguous
 * 5xx) the first attempt may still land, so nothing is sent again: the record is looked up at
 * growing intervals (0.5, 1, 2, 4 s …) within `lookupWindowMs` and returned when found; else the
 * call fails retryable with `outcome: 'unknown'`, and the client remembers it, so the next create
 * of the same record looks it up before sending.
 */
import type { z } from 'zod';
import { label, type Call } from './call.js';
import { initOf, ProviderError } from './errors.js';
import type { Resolved } from './options.js';
import type { Transport } from './transport.js';
import type { CreateOutcome } from './types.js';

/** The first wait before a lookup after a lost create answer; it doubles (0.5, 1, 2, 4 s …) within the window. */
export const LOOKUP_FIRST_DELAY_MS = 500;
/** Lookups after a lost create ask for this many candidates (the document's maximum page size). */
export const LOOKUP_SIZE = 100;
/** Creates whose outcome is unknown that a client remembers (the next create of the same record looks up first). */
const MAX_UNRESOLVED = 1_000;
/** How long such a memory is kept. */
const UNRESOLVED_TTL_MS = 24 * 60 * 60 * 1000;

/** How one create finds what it may have created after a lost answer. */
export interface CreateSpec<S extends z.ZodType, F> {
  call: Call;
  schema: S;
  /** Names the record across calls (`order:<client_order_id>` …): an unknown outcome is remembered by it. */
  key: string;
  /** Looks the record up: one created since `sinceMs` (epoch ms of the first attempt). */
  lookup: (sinceMs: number, r: Resolved) => Promise<F | undefined>;
  /** What the call answers when the lookup found it (`lost`: the lost answer's error, null on a lookup-first). */
  onFound: (found: F, lost: ProviderError | null) => z.output<S>;
  /** e.g. `the order`, for messages. */
  subject: string;
  /** How a caller names it again, e.g. `client_order_id shop-1`. */
  handle: string;
}

/** Sends one create at most once (see the module comment). */
export type Create = <S extends z.ZodType, F>(spec: CreateSpec<S, F>, r: Resolved) => Promise<z.output<S>>;

/**
 * Creates whose outcome is unknown, by record key → epoch ms of the first attempt. Bounded in size
 * (the oldest go first) and in age.
 */
function unresolvedMemory(now: () => number) {
  const unresolved = new Map<string, { sinceMs: number; atMs: number }>();
  return {
    remember(key: string, sinceMs: number): void {
      const at = now();
      unresolved.delete(key);
      unresolved.set(key, { sinceMs, atMs: at });
      for (const [k, v] of unresolved) {
        if (unresolved.size <= MAX_UNRESOLVED && at - v.atMs <= UNRESOLVED_TTL_MS) break;
        unresolved.delete(k); // oldest first (insertion order)
      }
    },
    since(key: string): number | undefined {
      const entry = unresolved.get(key);
      if (!entry) return undefined;
      if (now() - entry.atMs > UNRESOLVED_TTL_MS) {
        unresolved.delete(key);
        return undefined;
      }
      return entry.sinceMs;
    },
    forget(key: string): void {
      unresolved.delete(key);
    },
  };
}

/** A sent create's result: its answer, or the error of a lost answer (the record may exist). */
type Sent<T> = { answer: T } | { lost: ProviderError };

/** What the steps of a create share: the transport, the memory of unknown outcomes, the clock. */
interface Deps {
  transport: Transport;
  memory: ReturnType<typeof unresolvedMemory>;
  now: () => number;
}

export function createOnce(transport: Transport, now: () => number): Create {
  const deps: Deps = { transport, memory: unresolvedMemory(now), now };
  return async function create<S extends z.ZodType, F>(spec: CreateSpec<S, F>, r: Resolved): Promise<z.output<S>> {
    const pendingSince = deps.memory.since(spec.key);
    if (pendingSince !== undefined) {
      const found = await lookFirst(spec, pendingSince, r);
      if (found !== undefined) {
        deps.memory.forget(spec.key);
        return spec.onFound(found, null);
      }
    }
    const sinceMs = pendingSince ?? now();
    const sent = await sendOnce(deps, spec, sinceMs, r);
    if ('answer' in sent) return sent.answer;
    return lookAfterLoss(deps, spec, sent.lost, sinceMs, r);
  };
}

/** An earlier attempt's outcome is unknown: it may have landed since. Look before sending. */
async function lookFirst<S extends z.ZodType, F>(spec: CreateSpec<S, F>, pendingSince: number, r: Resolved): Promise<F | undefined> {
  try {
    return await spec.lookup(pendingSince, r);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    throw new ProviderError({
      code: err.code,
      message:
        `${label(spec.call)}: an earlier attempt for ${spec.handle} has an unknown outcome and looking it up failed (${err.message}); ` +
        `nothing was sent: try again later`,
      status: err.status,
      retryable: true,
      endpoint: label(spec.call),
      outcome: 'unknown',
      cause: err,
    });
  }
}

/** Sends the create once; throws when its outcome is known to be a failure (or the caller aborted). */
async function sendOnce<S extends z.ZodType, F>({ transport, memory }: Deps, spec: CreateSpec<S, F>, sinceMs: number, r: Resolved): Promise<Sent<z.output<S>>> {
  const { call, key } = spec;
  try {
    const answer = transport.interpret(call, await transport.send(call, r), spec.schema);
    memory.forget(key);
    return { answer };
  } catch (err) {
    if (err instanceof ProviderError && err.code === 'invalid_response') {
      // The create took effect (2xx) but its answer is unreadable: say so, so nobody creates again.
      memory.remember(key, sinceMs);
      throw new ProviderError({
        code: 'invalid_response',
        message: `${err.message}; ${spec.subject} was probably created: look it up before creating it again`,
        status: err.status,
        retryable: false,
        endpoint: label(call),
        outcome: 'created',
        ...(err.path !== undefined && { path: err.path }),
        ...(err.requestId !== undefined && { requestId: err.requestId }),
      });
    }
    if (!(err instanceof ProviderError)) {
      // The caller aborted: the request may have gone out.
      memory.remember(key, sinceMs);
      throw err;
    }
    if (!isLostAnswer(err)) {
      memory.forget(key);
      throw withOutcome(err, 'not_created');
    }
    return { lost: err };
  }
}

/** After a lost answer: lookups at growing intervals within the window; the found record, or the `unknown` error. */
async function lookAfterLoss<S extends z.ZodType, F>(
  { transport, memory, now }: Deps,
  spec: CreateSpec<S, F>,
  lost: ProviderError,
  sinceMs: number,
  r: Resolved,
): Promise<z.output<S>> {
  const { call, key } = spec;
  memory.remember(key, sinceMs);
  const windowMs = r.lookupWindowMs;
  let spent = 0;
  let delay = LOOKUP_FIRST_DELAY_MS;
  let lookups = 0;
  let lookupError: ProviderError | undefined;
  for (;;) {
    const pause = Math.min(delay, Math.max(0, windowMs - spent));
    if (pause > 0) {
      await transport.wait(pause, r.signal); // the caller's abort ends the wait (the outcome stays remembered as unknown)
      spent += pause;
    }
    const started = now();
    lookups++;
    let found: F | undefined;
    try {
      found = await spec.lookup(sinceMs, { ...r, maxRetries: 0 });
      lookupError = undefined;
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      lookupError = err;
      if (!err.retryable) break;
    }
    if (found !== undefined) {
      memory.forget(key);
      return spec.onFound(found, lost);
    }
    spent += Math.max(0, now() - started);
    if (spent >= windowMs) break;
    delay *= 2;
  }
  throw new ProviderError({
    code: lost.code,
    message:
      `${label(call)}: the answer was lost (${lost.message}) and ${lookups} lookup${lookups === 1 ? '' : 's'} over ${windowMs} ms ` +
      `did not find ${spec.subject}${lookupError ? ` (the last one failed: ${lookupError.message})` : ''}: the outcome is unknown. ` +
      `It may still appear: do not create another for ${spec.handle}; call again with the same data (this client looks it up first) or look it up`,
    status: lost.status,
    providerMessage: lost.providerMessage,
    retryable: true,
    endpoint: label(call),
    outcome: 'unknown',
    ...(lost.retryAfterMs !== undefined && { retryAfterMs: lost.retryAfterMs }),
    ...(lost.requestId !== undefined && { requestId: lost.requestId }),
    ...(lookupError !== undefined && { cause: lookupError }),
  });
}

/** An answer that does not tell whether the create took effect. */
function isLostAnswer(err: ProviderError): boolean {
  if (err.code === 'network') return !connectionRefused(err);
  if (err.code === 'timeout') return true;
  // A 5xx other than the documented soft refusal ("no available traders": nothing was created).
  return err.code === 'provider_error' && err.status !== null && err.status >= 500;
}

/**
 * A connection the provider refused (ECONNREFUSED) never carried the request: nothing can have been
 * created. Any other network failure (a reset, a hang-up) may have come after the request was sent.
 */
function connectionRefused(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  if ((err as { code?: unknown }).code === 'ECONNREFUSED' || /\bECONNREFUSED\b/.test(err.message)) {
    return !/ECONNRESET|socket hang up|EPIPE/i.test(err.message);
  }
  return connectionRefused(err.cause, depth + 1);
}

/** A ProviderError of a create with what it says of the record. */
function withOutcome(err: ProviderError, outcome: CreateOutcome): ProviderError {
  return new ProviderError({ ...initOf(err), outcome });
}
