/**
 * The two methods production integrations rely on (provider-notes.md): `getOrder(id)` and
 * `createDispute({ order_id, amount, files })` — checked before sending, sent as the provider reads
 * them, answers read leniently and errors typed.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DISPUTE_MAX_FILE_BYTES } from '../../../src/protocol/index.js';
import { ProviderError } from '../../../src/provider/index.js';
import { PROVIDER_MESSAGES } from '../../../src/provider/facts.js';
import type { CreateDisputeRequest } from '../../../src/provider/index.js';
import { API_KEY, json, makeClient, order, providerError } from './fake-provider.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const HTML = new TextEncoder().encode('<!doctype html><script>alert(1)</script>');
const ORDER_ID = '7d7f4a52-0c0c-4b8e-9d47-3c1d7a1f0b11';

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ProviderError, String(err));
  return err;
}

describe('getOrder', () => {
  test('GET /api/v1/order/{id} with the key; the order of the envelope is returned', async () => {
    const { client, calls } = makeClient(() => json({ success: true, message: 'ok', order: order() }));
    const res = await client.getOrder(ORDER_ID);
    assert.equal(res.id, ORDER_ID);
    assert.equal(calls[0]!.method, 'GET');
    assert.equal(calls[0]!.path, `/api/v1/order/${ORDER_ID}`);
    assert.equal(calls[0]!.headers.get('x-api-key'), API_KEY);
  });

  test('an id with reserved characters is one path segment', async () => {
    const { client, calls } = makeClient(() => json({ success: true, message: 'ok', order: order() }));
    await client.getOrder('a/b?c#d');
    assert.equal(calls[0]!.url.pathname, '/api/v1/order/a%2Fb%3Fc%23d');
    assert.equal(calls[0]!.url.search, '');
  });

  test('404 is order_not_found, not retryable, asked once', async () => {
    const { client, calls } = makeClient(() => providerError(404, PROVIDER_MESSAGES.order_not_found));
    const err = await failure(client.getOrder(ORDER_ID));
    assert.equal(err.code, 'order_not_found');
    assert.equal(err.status, 404);
    assert.equal(err.retryable, false);
    assert.equal(calls.length, 1);
  });

  test('a 404 in another wording maps to order_not_found too', async () => {
    const { client } = makeClient(() => json({ detail: 'Not Found' }, 404));
    assert.equal((await failure(client.getOrder(ORDER_ID))).code, 'order_not_found');
  });

  test('a read: a 503 is retried, then answered', async () => {
    let n = 0;
    const { client, calls } = makeClient(() => (n++ === 0 ? providerError(503, 'busy') : json({ success: true, message: 'ok', order: order() })));
    assert.equal((await client.getOrder(ORDER_ID)).id, ORDER_ID);
    assert.equal(calls.length, 2);
  });

  test('an empty or control-character id is refused before sending', async () => {
    for (const id of ['', '   ', 'a\nb', 'x'.repeat(257)]) {
      const { client, calls } = makeClient(() => json({}));
      const err = await failure(client.getOrder(id));
      assert.equal(err.code, 'invalid_request');
      assert.equal(err.field, 'id');
      assert.equal(calls.length, 0);
    }
  });

  test('an answer without the order is invalid_response naming order', async () => {
    const { client } = makeClient(() => json({ success: true, message: 'ok' }));
    const err = await failure(client.getOrder(ORDER_ID));
    assert.equal(err.code, 'invalid_response');
    assert.equal(err.path, 'order');
  });
});

describe('createDispute', () => {
  const valid = (extra: Partial<CreateDisputeRequest> = {}): CreateDisputeRequest => ({
    order_id: ORDER_ID,
    amount: '1500.00' as const,
    files: [
      { name: 'receipt.png', type: 'image/png', data: PNG },
      { name: 'statement.pdf', type: 'application/pdf', data: PDF },
    ],
    ...extra,
  });

  test('sends multipart/form-data: order_id, amount and each receipt in files[] with its name and type', async () => {
    let body: Uint8Array | undefined;
    let contentType = '';
    const { client, calls } = makeClient(() => json({ order_id: ORDER_ID, dispute_id: 'd-1', dispute_files: ['receipt.png', { name: 'statement.pdf' }] }, 201));
    const fetchSpy = client;
    const res = await fetchSpy.createDispute(valid());
    assert.deepEqual(res, { order_id: ORDER_ID, dispute_id: 'd-1', dispute_files: ['receipt.png', { name: 'statement.pdf' }] });
    const call = calls[0]!;
    assert.equal(call.method, 'POST');
    assert.equal(call.path, '/api/v1/disputes/create');
    contentType = call.headers.get('content-type') ?? '';
    assert.match(contentType, /^multipart\/form-data; boundary=----paydesk[0-9a-f]{32}$/);
    body = call.raw;
    const form = await new Response(body as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
    assert.equal(form.get('order_id'), ORDER_ID);
    assert.equal(form.get('amount'), '1500.00');
    const files = form.getAll('files[]') as File[];
    assert.deepEqual(
      files.map((f) => [f.name, f.type, f.size]),
      [
        ['receipt.png', 'image/png', PNG.length],
        ['statement.pdf', 'application/pdf', PDF.length],
      ],
    );
    assert.deepEqual(new Uint8Array(await files[0]!.arrayBuffer()), PNG);
  });

  test('an amount given as a number is refused before sending (money is a decimal string)', async () => {
    const { client, calls } = makeClient(() => json({ order_id: ORDER_ID, dispute_id: 'd-2' }, 201));
    const err = await client.createDispute(valid({ amount: 1500.5 as unknown as '1500.5' })).catch((e: unknown) => e);
    assert.ok(err instanceof ProviderError && err.code === 'invalid_request' && err.field === 'amount', String(err));
    assert.equal(calls.length, 0);
  });

  test('a decimal string amount is sent as written; absent dispute_files read as an empty list', async () => {
    const { client, calls } = makeClient(() => json({ order_id: ORDER_ID, dispute_id: 'd-2' }, 201));
    const res = await client.createDispute(valid({ amount: '1500.5' }));
    assert.deepEqual(res.dispute_files, [], 'absent dispute_files read as an empty list');
    const form = await new Response(calls[0]!.raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': calls[0]!.headers.get('content-type')! } }).formData();
    assert.equal(form.get('amount'), '1500.5');
  });

  test('the part carries the type its content proves, whatever was declared', async () => {
    const { client, calls } = makeClient(() => json({ order_id: ORDER_ID, dispute_id: 'd-3', dispute_files: [] }, 201));
    await client.createDispute(valid({ files: [{ name: 'scan.jpg', type: 'image/jpeg', data: PNG }] }));
    const form = await new Response(calls[0]!.raw as Uint8Array<ArrayBuffer>, { headers: { 'content-type': calls[0]!.headers.get('content-type')! } }).formData();
    assert.equal((form.get('files[]') as File).type, 'image/png');
  });

  const refused: [string, Partial<CreateDisputeRequest>, RegExp][] = [
    ['an empty order_id', { order_id: '  ' }, /^order_id$/],
    ['no receipts', { files: [] }, /^files$/],
    ['six receipts', { files: Array.from({ length: 6 }, (_, i) => ({ name: `r${i}.png`, type: 'image/png', data: PNG })) }, /^files$/],
    ['an HTML page renamed .png', { files: [{ name: 'receipt.png', type: 'image/png', data: HTML }] }, /^files\.0\.data$/],
    ['a declared type outside the list', { files: [{ name: 'r.gif', type: 'image/gif', data: PNG }] }, /^files\.0\.type$/],
    ['an empty file', { files: [{ name: 'r.png', type: 'image/png', data: new Uint8Array(0) }] }, /^files\.0\.data$/],
    ['a receipt over 10 MB', { files: [{ name: 'big.pdf', type: 'application/pdf', data: bigPdf(DISPUTE_MAX_FILE_BYTES + 1) }] }, /^files\.0\.data$/],
    [
      'receipts over 20 MB together',
      { files: [0, 1, 2].map((i) => ({ name: `p${i}.pdf`, type: 'application/pdf', data: bigPdf(DISPUTE_MAX_FILE_BYTES - 1) })) },
      /^files$/,
    ],
    ['a zero amount', { amount: '0' as const }, /^amount$/],
    ['a file that is not bytes', { files: [{ name: 'r.png', type: 'image/png', data: 'iVBORw0KGgo' as unknown as Uint8Array }] }, /^files\.0\.data$/],
  ];
  for (const [name, change, field] of refused) {
    test(`refused before sending: ${name}`, async () => {
      const { client, calls } = makeClient(() => json({}, 201));
      const err = await failure(client.createDispute(valid(change)));
      assert.equal(err.code, 'invalid_request');
      assert.match(err.field ?? '', field);
      assert.equal(err.outcome, 'not_created');
      assert.equal(calls.length, 0);
    });
  }

  test('an answer without a dispute_id is invalid_response (the dispute probably exists: outcome created)', async () => {
    const { client } = makeClient(() => json({ order_id: ORDER_ID }, 201));
    const err = await failure(client.createDispute(valid()));
    assert.equal(err.code, 'invalid_response');
    assert.equal(err.outcome, 'created');
  });

  test('a numeric dispute_id is read as its text', async () => {
    const { client } = makeClient(() => json({ order_id: ORDER_ID, dispute_id: 77, dispute_files: [] }, 201));
    assert.equal((await client.createDispute(valid())).dispute_id, '77');
  });
});

function bigPdf(size: number): Uint8Array {
  const data = new Uint8Array(size);
  data.set(new TextEncoder().encode('%PDF-1.7\n'));
  return data;
}
