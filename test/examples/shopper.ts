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
