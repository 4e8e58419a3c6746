/**
 * No silent loss on Redis: before its first command the Redis store reads the server's persistence
 * and eviction settings and refuses a Redis that would lose sessions — no append-only file
 * (`appendonly no`: a restart forgets every session written since the last snapshot) or a
 * `maxmemory-policy` that evicts keys (memory pressure drops sessions and exactly-once markers).
 *
 * It reads them with `INFO persistence` / `INFO memory` (`aof_enabled`, `maxmemory_policy`), which
 * managed Redis services allow where they disable `CONFIG GET`. When even INFO is refused, the
 * settings cannot be told: the store refuses and says so; `allowVolatile: true` accepts it (after the
 * operator checked the service's persistence and eviction settings by hand).
 */

/** What the check needs of an ioredis client. */
export interface RedisInfoClient {
  info(section: string): Promise<string>;
}

/** Why a Redis was refused: the message names the setting and what to set. */
export class VolatileRedisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VolatileRedisError';
  }
}

const ADVICE = 'or pass createRedisStore({ client, allowVolatile: true }) to accept losing sessions (tests, demos)';

/** A field of an INFO answer (`name:value` lines), or undefined. */
export function infoField(info: string, name: string): string | undefined {
  const m = new RegExp(`^${name}:(.*)$`, 'm').exec(info);
  return m?.[1]?.trim();
}

/** Reads and judges the settings: resolves when the Redis keeps what it is given, else rejects with {@link VolatileRedisError}. */
export async function checkRedisDurability(client: RedisInfoClient): Promise<void> {
  let persistence: string;
  let memory: string;
  try {
    [persistence, memory] = await Promise.all([client.info('persistence'), client.info('memory')]);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // A refused command is a fact about this Redis; a connection failure is not: it is tried again.
    if (!/unknown command|NOPERM|no permissions|disabled|not allowed/i.test(reason)) throw err;
    throw new VolatileRedisError(
      `paydesk/server: createRedisStore cannot tell whether this Redis keeps its data (INFO refused: ${reason.slice(0, 200)}). ` +
        `Make sure it runs with appendonly yes and maxmemory-policy noeviction (on a managed Redis: its persistence and eviction settings), then pass allowVolatile: true to accept it.`,
    );
  }
  const aof = infoField(persistence, 'aof_enabled');
  if (aof !== '1') {
    throw new VolatileRedisError(
      `paydesk/server: createRedisStore refuses this Redis: appendonly is no (INFO persistence: aof_enabled:${aof ?? '?'}), so a restart loses every session ` +
        `and paid orders reach onOrderPaid late or only as session_lost. Set appendonly yes (redis.conf, or CONFIG SET appendonly yes then CONFIG REWRITE), ${ADVICE}.`,
    );
  }
  const policy = infoField(memory, 'maxmemory_policy');
  if (policy !== 'noeviction') {
    throw new VolatileRedisError(
      `paydesk/server: createRedisStore refuses this Redis: maxmemory-policy is ${policy ?? 'unknown'}, so Redis may evict sessions and exactly-once markers under memory pressure. ` +
        `Set maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy noeviction), ${ADVICE}.`,
    );
  }
}

/** How long a refusal stands before the settings are read again (an operator may fix them live). */
const RECHECK_MS = 10_000;

/** Runs the check once before first use; a refusal is kept for a while, a connection failure is tried again next call. */
export class DurabilityGate {
  private passed = false;
  private running: Promise<void> | null = null;
  private refusal: { err: VolatileRedisError; at: number } | null = null;

  constructor(
    private readonly client: RedisInfoClient,
    allowVolatile: boolean,
  ) {
    this.passed = allowVolatile;
  }

  /** Resolves when the store may be used. */
  ready(): Promise<void> | undefined {
    if (this.passed) return undefined;
    if (this.refusal && Date.now() - this.refusal.at < RECHECK_MS) return Promise.reject(this.refusal.err);
    return (this.running ??= checkRedisDurability(this.client).then(
      () => {
        this.passed = true;
        this.running = null;
      },
      (err: unknown) => {
        this.running = null;
        if (err instanceof VolatileRedisError) this.refusal = { err, at: Date.now() };
        throw err;
      },
    ));
  }
}
