import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { API_ROUTES } from '../../../src/sandbox/routes/api.js';
import { makeSandbox } from './helpers.js';

type Json = Record<string, unknown>;

/** Every `$ref` in the document, with where it was found. */
function refs(node: unknown, path = '#', out: { ref: string; at: string }[] = []): { ref: string; at: string }[] {
  if (Array.isArray(node)) node.forEach((x, i) => refs(x, `${path}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push({ ref: v, at: path });
      else refs(v, `${path}/${k}`, out);
    }
  }
  return out;
}

function resolve(doc: Json, ref: string): unknown {
  assert.ok(ref.startsWith('#/'), `only local refs: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], doc);
}

describe('GET /openapi.json', () => {
  const t = makeSandbox({ seed: false });
  after(() => t.close());

  test('is an OpenAPI 3.1 document with info, paths, the API key scheme and servers', async () => {
    const r = await t.get('/openapi.json', null);
    assert.equal(r.status, 200);
    const doc = r.json as Json;
    assert.match(String(doc.openapi), /^3\.1\.\d+$/);
    assert.equal(typeof (doc.info as Json).title, 'string');
    assert.equal(typeof (doc.info as Json).version, 'string');
    assert.deepEqual((doc.components as Json).securitySchemes, { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } });
    assert.deepEqual(doc.servers, [{ url: 'http://localhost' }]);
  });

  test('every $ref resolves', async () => {
    const doc = (await t.get('/openapi.json', null)).json as Json;
    const all = refs(doc);
    assert.ok(all.length > 10);
    for (const { ref, at } of all) assert.ok(resolve(doc, ref) !== undefined, `${ref} at ${at}`);
  });

  test('every operation has a unique operationId, responses with a 2xx, and valid parameters', async () => {
    const doc = (await t.get('/openapi.json', null)).json as Json;
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item) as [string, Json][]) {
        assert.ok(['get', 'post'].includes(method), `${method} ${path}`);
        const id = String(op.operationId);
        assert.ok(!ids.has(id), `duplicate operationId ${id}`);
        ids.add(id);
        const codes = Object.keys(op.responses as Json);
        assert.ok(codes.some((c) => /^2\d\d$/.test(c)), `${method} ${path} has a success response`);
        for (const c of codes) assert.match(c, /^[1-5]\d\d$/);
        for (const p of (op.parameters as Json[] | undefined) ?? []) {
          assert.ok(p.in === 'query' || (p.in === 'path' && path.includes(`{${String(p.name)}}`)), `${method} ${path} ${String(p.name)}`);
          assert.equal(typeof p.name, 'string');
          assert.equal(typeof p.schema, 'object');
        }
      }
    }
    assert.equal(ids.size, 11);
  });

  test('its paths are exactly the routes the sandbox serves under /api/v1 (the nine, order by id, dispute create)', async () => {
    const doc = (await t.get('/openapi.json', null)).json as Json;
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    const served = t.sandbox.app.routes
      .filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`)
      .filter((r) => !/ \/api\/v1\/order$/.test(r)); // the alias without the trailing slash
    assert.deepEqual([...new Set(served)].sort(), documented.sort());
    assert.deepEqual(API_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort(), documented.sort());
  });

  test('schemas come from the validating zod schemas: the documented enums and limits are there', async () => {
    const doc = (await t.get('/openapi.json', null)).json as Json;
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const create = schemas.CreateOrderRequest!;
    assert.deepEqual(create.required, ['client_order_id', 'order_side', 'amount']);
    const props = create.properties as Record<string, Json>;
    assert.deepEqual(props.order_side!.enum, ['Buy', 'Sell']);
    assert.equal(props.client_order_id!.maxLength, 64);
    const list = ((doc.paths as Json)['/api/v1/order/'] as Json).get as Json;
    const size = (list.parameters as Json[]).find((p) => p.name === 'size')!;
    assert.equal((size.schema as Json).maximum, 100);
    const methods = ((doc.paths as Json)['/api/v1/finance/payment_methods'] as Json).get as Json;
    const methodType = (methods.parameters as Json[]).find((p) => p.name === 'method_type')!;
    assert.equal(methodType.explode, true);
  });

  test('a request the document describes as valid is accepted, one it forbids is refused', async () => {
    const doc = (await t.get('/openapi.json', null)).json as Json;
    const props = ((doc.components as Json).schemas as Record<string, Json>).CreateOrderRequest!.properties as Record<string, Json>;
    const sides = props.order_side!.enum as string[];
    for (const side of sides) {
      const body: Json = { client_order_id: `oa-${side}`, order_side: side, method_type: 'BankCard', amount: '1500.00' };
      if (side === 'Sell') body.customer_account = '2200123412341234';
      assert.equal((await t.post('/api/v1/order/', body)).status, 201, side);
    }
    assert.equal((await t.post('/api/v1/order/', { client_order_id: 'oa-x', order_side: 'Other', method_type: 'BankCard', amount: '1' })).status, 422);
  });
});
