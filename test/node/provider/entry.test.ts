import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as provider from '../../../src/provider/index.js';

test('paydesk/provider exports the client, its error, the facts and the schemas from one entry', () => {
  for (const name of [
    'createProviderClient',
    'ProviderError',
    'isProviderError',
    'classifyProviderError',
    'orderOutcome',
    'PROVIDER_MESSAGES',
    'BANKS',
    'OrderSchema',
    'CreateOrderRequestSchema',
    'createOrderRuleViolations',
    'formCreateRuleViolations',
  ]) {
    assert.ok(name in provider, `${name} is exported`);
  }
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
