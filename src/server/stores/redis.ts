/**
 * Redis store for several instances behind a load balancer. It takes an `ioredis` client the
 * merchant creates (ioredis is imported for its types only, so `paydesk/server` never loads it
 * unless this store is used), and a second connection for pub/sub (by default `client.duplicate()`).
 *
 * Each key is a hash `{v: value, n: version}`; the conditional writes are Lua scripts, so they are
 * atomic across instances. Before its first command it checks that the Redis keeps its data
 * (appendonly yes, maxmemory-policy noeviction: see redis-durability.ts) unless `allowVolatile`.
 *
 * @example
 *   import { Redis } from 'ioredis';
 *   import { createRedisStore } from 'paydesk/server';
 *   const store = createRedisStore({ client: new Redis(process.env.REDIS_URL!) });
 */
import { createHash } from 'node:crypto';
/**
 * The part of an ioredis `Redis` client this store uses, written out structurally so the published
 * types of `paydesk/server` do not depend on ioredis (a TypeScript user without it still compiles).
 * An ioredis `Redis` instance satisfies it.
 */
export interface RedisClientLike {
  duplicate(): RedisClientLike;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  evalsha(sha: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
  hmget(key: string, ...fields: string[]): Promise<Array<string | null>>;
  publish(channel: string, message: string): Promise<unknown>;
  zadd(key: string, score: number | string, member: string): Promise<unknown>;
  zrem(key: string, member: string): Promise<unknown>;
  zrangebyscore(
    key: string,
    min: number | string,
    max: number | string,
    withscores: 'WITHSCORES',
    limit: 'LIMIT',
    offset: number,
    count: number,
  ): Promise<string[]>;
  zrevrangebyscore(
    key: string,
    max: number | string,
    min: number | string,
    withscores: 'WITHSCORES',
    limit: 'LIMIT',
    offset: number,
    count: number,
  ): Promise<string[]>;
  zremrangebyrank(key: string, start: number, stop: number): Promise<unknown>;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  /** Read once before first use: the persistence and eviction settings (see `allowVolatile`). */
  info(section: string): Promise<string>;
}
type Redis = RedisClientLike;
import { checkLimit, checkScore } from '../store.js';
import type { CheckoutStore, IndexEntry, IndexRangeOptions, StoredValue } from '../store.js';
import { FanOut } from './fan-out.js';
import { DurabilityGate } from './redis-durability.js';

export interface RedisStoreOptions {
  /** Connection for commands. Not closed by {@link CheckoutStore.close} (you own it). */
  client: Redis;
  /** Connection for SUBSCRIBE (a subscribed connection cannot run commands). Default: `client.duplicate()`, closed by `close()`. */
  subscriber?: Redis;
  /** Prefix of every key and channel (default `paydesk:`). */
  prefix?: string;
  /**
   * Accept a Redis that may lose data. Without it the store refuses, on first use, a Redis with
   * `appendonly no` or a `maxmemory-policy` other than `noeviction` (or whose settings it cannot
   * read: INFO refused), with an error naming the setting: a restart or an eviction would forget
   * sessions, and paid orders would reach you late or only as `session_lost`. For tests and demos.
   */
  allowVolatile?: boolean;
}

const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'n', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const REPLACE = `
local n = redis.call('HGET', KEYS[1], 'n')
if not n or tonumber(n) ~= tonumber(ARGV[1]) then return 0 end
local next = tonumber(n) + 1
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'n', next)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return next`;

const SET = `
local next = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSET', KEYS[1], 'v', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return next`;

const DELETE = `
if ARGV[1] == '' then return redis.call('DEL', KEYS[1]) end
local n = redis.call('HGET', KEYS[1], 'n')
if not n or tonumber(n) ~= tonumber(ARGV[1]) then return 0 end
return redis.call('DEL', KEYS[1])`;

const INCREMENT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local t = redis.call('PTTL', KEYS[1])
if t < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); t = tonumber(ARGV[1]) end
return {c, t}`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

export class RedisStore implements CheckoutStore {
  private readonly client: Redis;
  private readonly givenSubscriber: Redis | undefined;
  /** Opened on the first subscribe (a store that only reads and writes needs one connection). */
  private sub: Redis | null = null;
  private readonly prefix: string;
  private readonly listeners = new FanOut();
  /** Each subscribed channel's SUBSCRIBE, kept while the channel has listeners. */
  private readonly ready = new Map<string, Promise<void>>();
  private readonly shas = new Map<string, string>();
  private readonly durability: DurabilityGate;

  constructor(options: RedisStoreOptions) {
    if (!options || typeof options.client !== 'object' || options.client === null) {
      throw new TypeError('paydesk/server: createRedisStore needs { client: an ioredis Redis instance }');
    }
    this.client = options.client;
    this.prefix = options.prefix ?? 'paydesk:';
    this.givenSubscriber = options.subscriber;
    this.durability = new DurabilityGate(this.client, options.allowVolatile === true);
  }

  private get subscriber(): Redis {
    if (this.sub) return this.sub;
    const sub = this.givenSubscriber ?? this.client.duplicate();
    sub.on('message', (channel: string, message: string) => this.listeners.deliver(channel, message));
    this.sub = sub;
    return sub;
  }

  private k(key: string): string {
    return this.prefix + key;
  }

  private async script(lua: string, key: string, args: Array<string | number>): Promise<unknown> {
    await this.durability.ready();
    let sha = this.shas.get(lua);
    if (!sha) this.shas.set(lua, (sha = sha1(lua)));
    try {
      return await this.client.evalsha(sha, 1, this.k(key), ...args);
    } catch (err) {
      if (err instanceof Error && err.message.includes('NOSCRIPT')) {
        return this.client.eval(lua, 1, this.k(key), ...args);
      }
      throw err;
    }
  }

  async get(key: string): Promise<StoredValue | null> {
    await this.durability.ready();
    const [value, version] = await this.client.hmget(this.k(key), 'v', 'n');
    if (value === null || value === undefined || version === null || version === undefined) return null;
    return { value, version: Number(version) };
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.script(CREATE, key, [value, ttl(ttlMs)])) === 1;
  }

  async replace(key: string, version: number, value: string, ttlMs: number): Promise<number | null> {
    const next = Number(await this.script(REPLACE, key, [version, value, ttl(ttlMs)]));
    return next > 0 ? next : null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.script(SET, key, [value, ttl(ttlMs)]);
  }

  async delete(key: string, version?: number): Promise<boolean> {
    return Number(await this.script(DELETE, key, [version === undefined ? '' : version])) > 0;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, resetMs] = (await this.script(INCREMENT, key, [ttl(windowMs)])) as [number, number];
    return { count: Number(count), resetMs: Number(resetMs) };
  }

  async indexSet(index: string, member: string, score: number): Promise<void> {
    checkScore(score);
    await this.durability.ready();
    await this.client.zadd(this.k(`ix:${index}`), score, member);
  }

  async indexRemove(index: string, member: string): Promise<void> {
    await this.durability.ready();
    await this.client.zrem(this.k(`ix:${index}`), member);
  }

  async indexRange(index: string, o: IndexRangeOptions): Promise<IndexEntry[]> {
    checkLimit(o.limit);
    await this.durability.ready();
    const min = o.min === undefined ? '-inf' : o.min;
    const max = o.max === undefined ? '+inf' : o.max;
    const key = this.k(`ix:${index}`);
    const flat = o.reverse
      ? await this.client.zrevrangebyscore(key, max, min, 'WITHSCORES', 'LIMIT', 0, o.limit)
      : await this.client.zrangebyscore(key, min, max, 'WITHSCORES', 'LIMIT', 0, o.limit);
    const out: IndexEntry[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ member: flat[i]!, score: Number(flat[i + 1]) });
    return out;
  }

  async indexTrim(index: string, keep: number): Promise<number> {
    await this.durability.ready();
    const k = Math.max(0, Math.floor(keep));
    return Number(await this.client.zremrangebyrank(this.k(`ix:${index}`), 0, -(k + 1)));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.durability.ready();
    await this.client.publish(this.k(channel), message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    await this.durability.ready();
    const name = this.k(channel);
    let ready = this.ready.get(name);
    if (!ready) {
      // Commands on one connection run in order, so a SUBSCRIBE after an UNSUBSCRIBE is safe.
      ready = this.subscriber.subscribe(name).then(() => undefined);
      this.ready.set(name, ready);
    }
    const remove = this.listeners.add(name, listener);
    try {
      await ready;
    } catch (err) {
      if (remove() && this.ready.get(name) === ready) this.ready.delete(name);
      throw err;
    }
    return async () => {
      if (!remove()) return;
      this.ready.delete(name);
      await this.sub?.unsubscribe(name).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.ready.clear();
    const sub = this.sub;
    this.sub = null;
    if (!sub) return;
    if (this.givenSubscriber) {
      await sub.unsubscribe().catch(() => undefined);
    } else {
      await sub.quit().catch(() => sub.disconnect());
    }
  }
}

function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

export function createRedisStore(options: RedisStoreOptions): RedisStore {
  return new RedisStore(options);
}
