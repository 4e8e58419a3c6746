/**
 * The databases of the store benchmarks: a Redis and a PostgreSQL, each the one its test variable
 * names (PAYDESK_TEST_REDIS_URL, PAYDESK_TEST_POSTGRES_URL — .ci/run starts both) or else one started
 * here on a free loopback port and stopped afterwards (redis-server on PATH; PostgreSQL from Debian's
 * /usr/lib/postgresql/<version>/bin, durable settings as a merchant runs them). Null when the machine
 * has neither.
 */
import { ownPostgres } from '../test/node/server/postgres-server.js';
import { startRedis } from '../test/node/server/redis-server.js';

export interface Database {
  url: string;
  stop(): Promise<void>;
}

export async function benchRedis(): Promise<Database | null> {
  const redis = await startRedis();
  return redis && { url: redis.url, stop: () => redis.stop() };
}

export async function benchPostgres(): Promise<Database | null> {
  const given = process.env.PAYDESK_TEST_POSTGRES_URL;
  if (given) return { url: given, stop: async () => {} };
  const own = await ownPostgres();
  return own && { url: own.url, stop: async () => own.remove() };
}
