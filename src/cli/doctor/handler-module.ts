/**
 * `paydesk doctor --handler module.js`: the merchant's module, imported, and what it exposes — the
 * handler (`createCheckoutHandler(…)`) or the options it is made from — under `default`, `handler`
 * or `options`. From options the doctor reads the provider, webhook URL, session secret, currency and
 * store; from a handler, its store (the rest then comes from the environment).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CheckoutStore } from '../../server/store.js';
import { unguardedStore } from '../../server/store-guard.js';
import { Failure, UsageError } from '../core/io.js';
import { finding, ok, type Check } from './checks.js';

export interface HandlerFacts {
  /** Where they came from: `handler` or `options`. */
  kind: 'handler' | 'options';
  /** Reads the store (a handler's first use); throws what the handler throws for bad options. */
  store(): CheckoutStore | undefined;
  provider?: { baseUrl?: string; apiKey?: string };
  webhookUrl?: string | null;
  sessionSecret?: string;
  currency?: string;
  close(): Promise<void>;
}

const EXPORT_NAMES = ['default', 'handler', 'options'] as const;

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null;

function factsOf(value: unknown): HandlerFacts | null {
  if (typeof value === 'function' && 'inspect' in value && 'reconcile' in value) {
    const handler = value as unknown as { store: CheckoutStore; close(): Promise<void> };
    // The handler bounds its store's calls (storeTimeoutMs) behind a wrapper: name the merchant's own.
    return { kind: 'handler', store: () => unguardedStore(handler.store), close: () => handler.close() };
  }
  if (isObject(value) && 'provider' in value && 'sessionSecrets' in value) {
    const o = value as Loose & { provider: Loose; sessionSecrets: unknown; store?: CheckoutStore };
    const provider = isObject(o.provider) ? o.provider : {};
    const secrets = Array.isArray(o.sessionSecrets) ? o.sessionSecrets : [];
    return {
      kind: 'options',
      store: () => o.store,
      provider: {
        ...(typeof provider.baseUrl === 'string' && { baseUrl: provider.baseUrl }),
        ...(typeof provider.apiKey === 'string' && { apiKey: provider.apiKey }),
      },
      ...(typeof o.webhookUrl === 'string' || o.webhookUrl === null ? { webhookUrl: o.webhookUrl as string | null } : {}),
      ...(typeof secrets[0] === 'string' && { sessionSecret: secrets[0] }),
      ...(typeof o.currency === 'string' && { currency: o.currency }),
      close: async () => {
        await o.store?.close?.().catch(() => undefined);
      },
    };
  }
  return null;
}

export async function loadHandlerModule(path: string, cwd: string): Promise<HandlerFacts> {
  let mod: Loose;
  try {
    mod = (await import(pathToFileURL(resolve(cwd, path)).href)) as Loose;
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new Failure(`cannot import ${path}: ${message} (give a .js or .mjs module; for TypeScript run doctor under tsx: npx tsx node_modules/.bin/paydesk doctor …)`);
  }
  for (const name of EXPORT_NAMES) {
    const facts = factsOf(mod[name]);
    if (facts) return facts;
  }
  throw new UsageError(`${path} exports no handler or handler options: export the handler (createCheckoutHandler(…)) or its options as default, "handler" or "options"`);
}

/** The store: the memory store is a finding (it loses every session on a restart); another is asked once, so a refusing store says why. */
export async function checkStore(facts: HandlerFacts): Promise<Check> {
  let store: CheckoutStore | undefined;
  try {
    store = facts.store();
  } catch (err) {
    return finding('store', `the handler refuses its options: ${err instanceof Error ? err.message : String(err)}`, 'fix that option (the handler fails its first request the same way)');
  }
  const name = store?.constructor?.name ?? 'a store';
  if (!store || name === 'MemoryStore') {
    return finding(
      'store',
      'the handler keeps sessions in memory: a restart or a second instance loses every open order (a paid one included)',
      'pass a durable store: createSqliteStore({ path }) on one host, createRedisStore({ client }) (appendonly yes, noeviction) or createPostgresStore({ pool }) for several',
    );
  }
  try {
    await Promise.race([
      store.get('paydesk:doctor:probe'),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no answer within 5 s')), 5000).unref()),
    ]);
  } catch (err) {
    return finding('store', `${name} refused a read: ${err instanceof Error ? err.message : String(err)}`, 'fix the store as the message says (for Redis: appendonly yes and maxmemory-policy noeviction)');
  }
  return ok('store', `${name} (durable) answers`);
}
