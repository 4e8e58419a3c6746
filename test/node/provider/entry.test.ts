import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as provider from '../../../src/provider/index.js';

test('paydesk/provider exports the client, its error, the decimal check and the provider\'s value lists from one entry', () => {
  for (const name of [
    'createProviderClient',
    'ProviderError',
    'isProviderError',
    'decimalAmount',
    'orderOutcome',
    'isKnown',
    'ORDER_STATUSES',
    'METHOD_TYPES',
    'AGGREGATE_METHOD_IDS',
  ]) {
    assert.ok(name in provider, `${name} is exported`);
  }
});

test('paydesk/provider keeps its internals out: no schemas, error mapping, retry constants or checksum helpers', () => {
  for (const name of [
    'classifyProviderError',
    'PROVIDER_MESSAGES',
    'BANKS',
    'OrderSchema',
    'CreateOrderRequestSchema',
    'createOrderRuleViolations',
    'crc16ccitt',
    'BACKOFF_BASE_MS',
    'eachItem',
    'detectReceiptType',
  ]) {
    assert.ok(!(name in provider), `${name} is not exported`);
  }
  // The public list is chosen (api/paydesk-provider.api.md), and short.
  assert.ok(Object.keys(provider).length <= 60);
});

test('isProviderError checks the class and, when given, the code', () => {
  const err = new provider.ProviderError({ code: 'no_traders', message: 'x', retryable: true });
  assert.equal(provider.isProviderError(err), true);
  assert.equal(provider.isProviderError(err, 'no_traders'), true);
  assert.equal(provider.isProviderError(err, 'network'), false);
  assert.equal(provider.isProviderError(new Error('x')), false);
  assert.equal(err.name, 'ProviderError');
  assert.ok(!Object.keys(err).includes('name'), 'name lives on the prototype');
});
