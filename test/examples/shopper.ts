/**
 * The shopper's side of the examples suite: open a shop page in a fresh Chromium context, wait for the
 * painted requisites of the order the page's server created, and pay it in the sandbox.
 */
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { SANDBOX_KEY, WAIT_MS, completeInSandbox, holdTogether } from './helpers.js';

export interface Purchase {
  page: Page;
  orderId: string;
  /** Paths the page requested until the requisites were painted, in order. */
  requests: string[];
  /** Uncaught page errors, console errors and failed requests. */
  errors: string[];
  /** `Date.now()` just before the sandbox was asked to complete the order. */
  completeCalledAt: number;
}

/**
 * Opens the shop page, waits for the painted requisites of the order the example server created (they
 * must show that order's account), then pays it in the sandbox.
 *
 * `together`: requests (`METHOD /path`, one pattern each) that must all be asked for in one round
 * trip: each is held back until every pattern has been asked for (at most 8 s), and the test fails
 * unless all had been asked for when the first one was let through. A request the browser makes only
 * after another one's answer (a waterfall) fails it.
 */
export async function buy(
  browser: Browser,
  url: string,
  sandboxUrl: string,
  beforePaying?: (page: Page) => Promise<void>,
  together: RegExp[] = [],
  /** The sandbox key the page's server uses (the scenario control takes the same key). */
  apiKey = SANDBOX_KEY,
): Promise<Purchase> {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    addEventListener('paydesk-session', (e) => {
      const { order } = (e as CustomEvent<{ order: { id: string; requisites: { holder_account: string } | null } }>).detail;
      (window as unknown as { __order: unknown }).__order = { id: order.id, account: order.requisites?.holder_account ?? '' };
    });
    // When the page learnt of the payment (the same machine's clock as the test's Date.now()).
    addEventListener('paydesk-paid', () => ((window as unknown as { __paidAt: number }).__paidAt = Date.now()));
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A failed load is reported by its response below (with its URL); the browser's own favicon probe is no page error.
  page.on('console', (m) => void (m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text())));
  page.on('response', (r) => void (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico' && errors.push(`${r.status()} ${r.url()}`)));
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  const asked = together.length > 0 ? await holdTogether(page, together) : () => [];
  await page.goto(url);

  const requisites = page.locator('paydesk-checkout [part~="requisites"]');
  await requisites.waitFor({ state: 'visible', timeout: WAIT_MS });
  const order = (await (
    await page.waitForFunction(() => (window as unknown as { __order?: unknown }).__order, null, { timeout: WAIT_MS })
  ).jsonValue()) as { id: string; account: string };
  const digits = (s: string) => s.replace(/\D/g, '');
  assert.ok(digits(order.account).length >= 10, `the order has an account: ${order.account}`);
  assert.ok(digits(await requisites.innerText()).includes(digits(order.account)), 'the painted requisites show the order account');

  for (const p of together) assert.ok(asked().some((h) => p.test(h)), `${p} was asked for in the same round trip as ${together.join(', ')} (before any answer): ${asked().join(', ')}`);
  const requestedUntilPainted = [...requests];
  await beforePaying?.(page);
  const completeCalledAt = Date.now();
  await completeInSandbox(sandboxUrl, order.id, apiKey);
  return { page, orderId: order.id, requests: requestedUntilPainted, errors, completeCalledAt };
}

/** Waits until the element reports the order paid (its `state` getter), or fails with what it shows. */
export async function elementPaid(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('paydesk-checkout') as (HTMLElement & { state?: string }) | null)?.state === 'paid', null, {
    timeout: WAIT_MS,
  });
}


/** Waits for the element's `paydesk-paid` event and answers when it came (`Date.now()` in the page). */
export async function paidAt(page: Page): Promise<number> {
  const at = await page.waitForFunction(() => (window as unknown as { __paidAt?: number }).__paidAt, null, { timeout: WAIT_MS });
  return (await at.jsonValue()) as number;
}

/** How many orders the sandbox holds (its `GET /api/v1/order/` total, the last 24 hours). */
export async function sandboxOrderCount(sandboxUrl: string, apiKey = SANDBOX_KEY): Promise<number> {
  const res = await fetch(`${sandboxUrl}/api/v1/order/?size=1`, { headers: { 'X-API-Key': apiKey } });
  if (res.status !== 200) throw new Error(`GET /api/v1/order/: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { orders: { total: number } }).orders.total;
}

/** The element's state and order, as its getters answer. */
async function elementOrder(page: Page, state: string): Promise<{ id: string; account: string; amount: string }> {
  const handle = await page.waitForFunction(
    (want) => {
      const el = document.querySelector('paydesk-checkout') as (HTMLElement & { state?: string; order?: { id: string; amount: string; requisites: { holder_account: string } | null } | null }) | null;
      const order = el?.state === want ? el.order : null;
      return order && { id: order.id, amount: order.amount, account: order.requisites?.holder_account ?? '' };
    },
    state,
    { timeout: WAIT_MS },
  );
  return (await handle.jsonValue()) as { id: string; account: string; amount: string };
}

export interface ServerRenderedPurchase {
  orderId: string;
  /** Uncaught page errors, console errors and failed requests of the page with JavaScript on. */
  errors: string[];
}

/**
 * A server-rendered checkout page (paydesk/ssr), bought the way a shopper does:
 * 1. with JavaScript disabled, the page's HTML alone shows the amount and the account (the shadow root
 *    is declarative);
 * 2. with JavaScript on, in the same cart (the cookies of step 1), the element takes the same order
 *    over: its state becomes `pay` with that order, and the page never sends `POST …/sessions`;
 * 3. a reload shows the same order; the sandbox holds exactly one new order for all three page loads;
 * 4. the order expires unpaid: a reload gets the purchase's next order, a second reload that same one;
 * 5. the sandbox completes it and the element shows it paid.
 * `amountText`: how the amount reads in the page (e.g. /1\s?500/).
 */
export async function buyServerRendered(
  browser: Browser,
  url: string,
  sandboxUrl: string,
  amountText: RegExp,
  apiKey = SANDBOX_KEY,
): Promise<ServerRenderedPurchase> {
  const digits = (s: string) => s.replace(/\D/g, '');
  const ordersBefore = await sandboxOrderCount(sandboxUrl, apiKey);

  // 1. No JavaScript: what the HTML paints.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noJs.newPage();
  await bare.goto(url);
  const painted = bare.locator('paydesk-checkout [part~="requisites"]');
  await painted.waitFor({ state: 'visible', timeout: WAIT_MS });
  assert.equal(await bare.locator('paydesk-checkout:not(:defined)').count(), 1, 'no script defined the element');
  const paintedText = await painted.innerText();
  const cardText = await bare.locator('paydesk-checkout [part~="base"]').innerText();
  assert.match(cardText.replace(/\s/g, ' '), amountText, `the amount is painted without JavaScript: ${cardText}`);
  assert.ok(digits(paintedText).length >= 10, `an account is painted without JavaScript: ${paintedText}`);
  const cookies = await noJs.cookies();
  await noJs.close();

  // 2. JavaScript on, the same shopper (cart cookie): the element takes the order over.
  const context = await browser.newContext();
  await context.addCookies(cookies);
  const page = await context.newPage();
  const errors: string[] = [];
  const creates: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => void (m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text())));
  page.on('response', (r) => void (r.status() >= 400 && new URL(r.url()).pathname !== '/favicon.ico' && errors.push(`${r.status()} ${r.url()}`)));
  page.on('request', (r) => void (r.method() === 'POST' && /\/sessions$/.test(new URL(r.url()).pathname) && creates.push(r.url())));
  await page.goto(url);
  const order = await elementOrder(page, 'pay');
  assert.ok(digits(paintedText).includes(digits(order.account)), `the no-JavaScript page showed this order's account ${order.account}: ${paintedText}`);
  assert.ok(digits(await page.locator('paydesk-checkout [part~="requisites"]').innerText()).includes(digits(order.account)), 'the element shows the account');

  // 3. A reload: the same order, still one order in the sandbox, no create from the page.
  await page.reload();
  const again = await elementOrder(page, 'pay');
  assert.equal(again.id, order.id, 'a reload shows the same order');
  assert.deepEqual(creates, [], 'the page never sent POST /sessions');
  assert.equal(await sandboxOrderCount(sandboxUrl, apiKey), ordersBefore + 1, 'one order for the no-JavaScript view, the page and its reload');

  // 4. The order ends unpaid (the sandbox expires it; the element shows it): a reload gets the
  //    purchase's next order (the page's next key), and another reload that same order.
  const expire = await fetch(`${sandboxUrl}/sandbox/orders/${encodeURIComponent(order.id)}/expire`, { method: 'POST', headers: { 'X-API-Key': apiKey } });
  assert.equal(expire.status, 200, `expire ${order.id}: ${expire.status}`);
  await elementOrder(page, 'expired');
  await page.reload();
  const next = await elementOrder(page, 'pay');
  assert.notEqual(next.id, order.id, 'after the order ended unpaid, a reload gets a new order');
  await page.reload();
  assert.equal((await elementOrder(page, 'pay')).id, next.id, 'and a reload after that, the same new order');
  assert.deepEqual(creates, [], 'the page never sent POST /sessions');
  assert.equal(await sandboxOrderCount(sandboxUrl, apiKey), ordersBefore + 2, 'one order per attempt, none per reload');

  // 5. Paid.
  await completeInSandbox(sandboxUrl, next.id, apiKey);
  await elementPaid(page);
  await context.close();
  return { orderId: next.id, errors };
}
