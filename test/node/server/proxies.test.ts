/**
 * `trustProxy` as a list of proxies: behind a trusted load balancer each shopper is counted by the
 * address the balancer saw, a forwarded header from any other socket is ignored, and the adapters'
 * socket address no longer overrides it. Served over real sockets by the Node, Express and Hono adapters.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { toExpressMiddleware, toHonoHandler, toNodeListener } from '../../../src/server/index.js';
import type { CheckoutHandler } from '../../../src/server/index.js';
import { clientAddressBehindProxies, parseAddress, parseTrustProxy } from '../../../src/server/proxy.js';
import { assertBadOptionOnFirstUse, makeHarness } from './fake-provider.js';

const servers: http.Server[] = [];
after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

type Mount = 'node' | 'express' | 'hono';

async function listen(handler: CheckoutHandler, mount: Mount): Promise<string> {
  let server: http.Server;
  if (mount === 'node') server = http.createServer(toNodeListener(handler));
  else if (mount === 'express') {
    const app = express();
    app.use('/api/paydesk', toExpressMiddleware(handler));
    server = http.createServer(app);
  } else {
    const app = new Hono();
    app.all('/api/paydesk/*', toHonoHandler(handler));
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
    await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', () => resolve())));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/paydesk`;
  }
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/paydesk`;
}

/** One shopper's `POST /sessions`, as the load balancer forwards it (its X-Forwarded-For). */
async function createThrough(base: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${base}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-paydesk': '1', 'x-forwarded-for': forwardedFor },
    body: JSON.stringify({ order_ref: 'tee', method_type: 'SBP' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe('trustProxy: a list of proxies', () => {
  for (const mount of ['node', 'express', 'hono'] as const) {
    test(`${mount}: 40 shoppers from 40 addresses through one trusted proxy are not rate-limited together`, async () => {
      const h = makeHarness({ trustProxy: ['10.0.0.0/8', '127.0.0.1', '::1'] });
      const base = await listen(h.handler, mount);
      const statuses: number[] = [];
      // The shopper's own (forged or not) entry comes first; the proxy appends what it saw.
      for (let i = 0; i < 40; i++) statuses.push(await createThrough(base, `198.51.100.7, 203.0.113.${i + 1}, 10.1.2.3`));
      assert.deepEqual(statuses, new Array(40).fill(201), 'the default 30 creates a minute per address count each shopper, not the proxy');
      // One shopper over the limit is still limited alone, behind the same proxy.
      const one: number[] = [];
      for (let i = 0; i < 31; i++) one.push(await createThrough(base, '203.0.113.200'));
      assert.equal(one.filter((s) => s === 201).length, 30);
      assert.equal(one[30], 429);
      assert.equal(await createThrough(base, '203.0.113.201'), 201, 'another shopper is not affected');
      await h.handler.close();
    });

    test(`${mount}: a forged X-Forwarded-For from a socket that is not a trusted proxy is ignored`, async () => {
      const h = makeHarness({ trustProxy: ['10.0.0.0/8'] }); // the test's socket, 127.0.0.1, is not in it
      const base = await listen(h.handler, mount);
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push(await createThrough(base, `203.0.113.${i + 1}`));
      assert.equal(statuses.filter((s) => s === 201).length, 30);
      assert.equal(statuses[30], 429, 'all 31 counted as the socket address');
      await h.handler.close();
    });
  }

  test('true keeps its meaning: the last forwarded entry counts, over a socket too', async () => {
    const h = makeHarness({ trustProxy: true, rateLimits: { createPerAddress: { limit: 1, windowSeconds: 60 } } });
    const base = await listen(h.handler, 'node');
    assert.equal(await createThrough(base, '1.1.1.1, 10.0.0.5'), 201);
    assert.equal(await createThrough(base, '2.2.2.2, 10.0.0.5'), 429, 'the last hop (what the proxy saw) counts');
    assert.equal(await createThrough(base, '10.0.0.6'), 201);
    await h.handler.close();
  });

  test('getClientAddress, when given, wins over the socket address', async () => {
    const h = makeHarness({
      rateLimits: { createPerAddress: { limit: 1, windowSeconds: 60 } },
      getClientAddress: (req) => req.headers.get('x-forwarded-for') ?? undefined,
    });
    const base = await listen(h.handler, 'node');
    assert.equal(await createThrough(base, '1.1.1.1'), 201);
    assert.equal(await createThrough(base, '2.2.2.2'), 201);
    assert.equal(await createThrough(base, '1.1.1.1'), 429);
    await h.handler.close();
  });

  test('a bad entry is a TypeError naming it, on first use', async () => {
    await assertBadOptionOnFirstUse({ trustProxy: ['10.0.0.0/33'] }, /trustProxy entry "10\.0\.0\.0\/33"/);
    await assertBadOptionOnFirstUse({ trustProxy: ['proxy.internal'] }, /trustProxy entry "proxy\.internal"/);
    await assertBadOptionOnFirstUse({ trustProxy: '10.0.0.1' as unknown as string[] }, /trustProxy must be/);
  });
});

describe('addresses and ranges', () => {
  test('IPv4, IPv6, IPv4-mapped IPv6 and ports parse; nonsense does not', () => {
    assert.deepEqual([...parseAddress('10.1.2.3')!], [10, 1, 2, 3]);
    assert.deepEqual([...parseAddress('::ffff:127.0.0.1')!], [127, 0, 0, 1]);
    assert.deepEqual([...parseAddress('203.0.113.9:51234')!], [203, 0, 113, 9]);
    assert.equal(parseAddress('::1')!.length, 16);
    assert.equal(parseAddress('[2001:db8::1]:443')!.length, 16);
    assert.equal(parseAddress('fe80::1%eth0')!.length, 16);
    for (const bad of ['', '1.2.3', '1.2.3.256', '1:2:3:4:5:6:7:8:9', '1::2::3', 'g::1', 'localhost', '01.2.3.4.5']) {
      assert.equal(parseAddress(bad), null, bad);
    }
  });

  test('the nearest untrusted entry, walking from the right', () => {
    const trust = parseTrustProxy(['10.0.0.0/8', '2001:db8::/32', '127.0.0.1'])!;
    assert.equal(clientAddressBehindProxies(trust, '::ffff:127.0.0.1', '1.1.1.1, 2.2.2.2, 10.9.9.9'), '2.2.2.2');
    assert.equal(clientAddressBehindProxies(trust, '10.0.0.1', '2001:db9::5, 2001:db8::7'), '2001:db9::5');
    assert.equal(clientAddressBehindProxies(trust, '10.0.0.1', '10.0.0.2, 10.0.0.3'), '10.0.0.2', 'all trusted: the farthest');
    assert.equal(clientAddressBehindProxies(trust, '10.0.0.1', null), '10.0.0.1', 'no header: the proxy itself');
    assert.equal(clientAddressBehindProxies(trust, '192.0.2.1', '1.1.1.1'), '192.0.2.1', 'untrusted socket: header ignored');
    assert.equal(clientAddressBehindProxies(trust, '11.0.0.1', '1.1.1.1'), '11.0.0.1', 'just outside the /8');
    assert.equal(clientAddressBehindProxies(trust, undefined, '1.1.1.1'), undefined, 'no socket: nothing to trust');
    const slash0 = parseTrustProxy(['0.0.0.0/0'])!;
    assert.equal(clientAddressBehindProxies(slash0, '8.8.8.8', '1.1.1.1, 9.9.9.9'), '1.1.1.1');
    assert.equal(clientAddressBehindProxies(slash0, '::1', '1.1.1.1'), '::1', 'an IPv4 range does not hold IPv6 addresses');
  });
});
