/**
 * `paydesk webhooks test URL`: one test delivery (provider/webhook-test.ts) to a merchant's webhook
 * route, signed as the provider signs (X-Paydesk-Signature with the webhook secret) and carrying the
 * terminal's X-API-Key when one is known, so a handler in either webhook mode verifies it. The
 * handler answers `200 {"received": true, "test": true}` without fulfilling anything.
 *
 * `paydesk webhooks resend ORDER_ID`: the sandbox delivers the order's webhook again
 * (`POST /sandbox/orders/{id}/webhook`), with its current status.
 */
import { randomUUID } from 'node:crypto';
import { sendTestWebhook, type TestWebhookAnswer } from '../../provider/webhook-test.js';
import { Failure, UsageError, optionOrEnv, printJson } from '../core/io.js';
import { providerTarget, requireSandbox, sandboxCaller, sandboxRefusal } from '../core/provider.js';
import { JSON_OPTION, PROVIDER_OPTIONS, type CommandSpec } from '../core/spec.js';

export const webhooksTest: CommandSpec = {
  name: 'webhooks test',
  summary: 'send a signed test delivery to your webhook route; it must answer 2xx and fulfil nothing',
  description: [
    'The delivery is a webhook of the type "paydesk_test" (order id paydesk_test_…), which the provider',
    'never sends. paydesk/server verifies it like any delivery, logs it as a test and answers',
    '200 {"received": true, "test": true} without touching an order. It is signed with the webhook',
    "secret (X-Paydesk-Signature) and carries the terminal's X-API-Key, when each is known: give the",
    'one your handler checks (webhookSecrets → the secret; api_key mode → the key).',
  ].join('\n'),
  args: [{ name: 'URL', help: 'your webhook route, e.g. https://shop.example/api/paydesk/webhooks', required: true }],
  options: {
    'webhook-secret': { type: 'string', value: 'SECRET', env: 'PAYDESK_WEBHOOK_SECRET', help: 'the webhook signing secret (the sandbox prints it)' },
    'api-key': PROVIDER_OPTIONS['api-key'],
    ...JSON_OPTION,
  },
  examples: ['paydesk webhooks test http://127.0.0.1:3000/api/paydesk/webhooks --webhook-secret whsec_…'],
  async run(input, io) {
    const url = input.args.URL!;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`URL ${JSON.stringify(url)} is not a URL; give your webhook route, e.g. http://127.0.0.1:3000/api/paydesk/webhooks`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`URL must be http(s), not ${parsed.protocol}`);
    const secret = optionOrEnv(input.options, 'webhook-secret', io, 'PAYDESK_WEBHOOK_SECRET');
    const apiKey = optionOrEnv(input.options, 'api-key', io, 'PAYDESK_API_KEY');
    if (!secret && !apiKey) {
      throw new UsageError('nothing to authenticate the delivery with: set PAYDESK_WEBHOOK_SECRET (or --webhook-secret), or PAYDESK_API_KEY (or --api-key)');
    }
    const requestId = randomUUID();
    let reply: TestWebhookAnswer;
    try {
      reply = await sendTestWebhook((init) => io.fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(10_000) }), {
        requestId,
        nowMs: io.now(),
        ...(secret && { secret }),
        ...(apiKey && { apiKey }),
        userAgent: 'paydesk-cli',
      });
    } catch (err) {
      throw new Failure(`cannot reach ${url} (${err instanceof Error ? err.message : String(err)}); is your server running there?`);
    }
    const { status, text, json, recognised, problem } = reply;
    const result = { url, request_id: requestId, signed: Boolean(secret), api_key: Boolean(apiKey), status, answer: json ?? text, recognised };
    if (input.options.json) printJson(io, result);
    if (problem === 'unverified') throw new Failure(`${url} answered 401: the delivery was not verified; give the webhook secret (or API key) your handler is configured with`);
    if (problem === 'error') throw new Failure(`${url} answered ${status} ${text.replace(/\s+/g, ' ')}`.trim());
    if (problem === 'not_a_test_answer') throw new Failure(`${url} answered ${status} but not as a paydesk handler ({"test": true} missing): is this the route of createCheckoutHandler (paydesk 0.1+ with test deliveries)?`);
    if (!input.options.json) io.out(`${url} answered ${status}: test delivery ${requestId} verified; nothing was fulfilled`);
    return 0;
  },
};

export const webhooksResend: CommandSpec = {
  name: 'webhooks resend',
  summary: "have the sandbox deliver an order's webhook again (its current status)",
  args: [{ name: 'ORDER_ID', help: "the provider's order id", required: true }],
  options: { ...PROVIDER_OPTIONS, ...JSON_OPTION },
  examples: ['paydesk webhooks resend 5f0c2a…'],
  async run(input, io) {
    const target = providerTarget(input, io);
    const call = sandboxCaller(target, io);
    await requireSandbox(call, target);
    const id = input.args.ORDER_ID!;
    const answer = await call('POST', `/sandbox/orders/${encodeURIComponent(id)}/webhook`);
    if (answer.status !== 202) throw sandboxRefusal(`resending the webhook of ${id}`, answer);
    const delivery = answer.body?.delivery as { request_id?: string; url?: string } | undefined;
    if (input.options.json) printJson(io, answer.body);
    else io.out(`${String(answer.body?.message ?? 'sent')} (request_id ${delivery?.request_id ?? '?'}); see GET /sandbox/webhooks?order_id=${id} for its attempts`);
    return 0;
  },
};
