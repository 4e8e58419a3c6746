/**
 * Timers that fire early. Firefox and WebKit fire a 500 ms `setTimeout` when `performance.now()` has
 * moved 499.99 ms: code that waits N ms, then checks "elapsed ≥ N" and schedules no second look, stays
 * stuck. The demo's sandbox bar did (issue 29: Accept/Reject stayed disabled after a receipt). Here the
 * page's timers are replaced by a fake that fires every timer 0.01 ms before its time, as those
 * engines do, and the bar must still enable its buttons.
 */
import { expect } from '@open-wc/testing';
import { renderSandbox } from '../../demo/public/src/store-sandbox.js';
import { state } from '../../demo/public/src/store-state.js';

interface Pending {
  at: number;
  fn: () => void;
}

/**
 * Replaces `setTimeout` and `performance.now` with a clock that fires each timer `early` ms before its
 * time, for the duration of `run` (synchronous: nothing of the test runner's own waits in between).
 */
function withEarlyTimers(early: number, run: (fire: () => number) => void): void {
  let now = 1_000_000;
  const pending: Pending[] = [];
  const realSetTimeout = window.setTimeout;
  window.setTimeout = ((fn: () => void, ms = 0) => {
    pending.push({ at: now + Math.max(0, ms) - early, fn });
    return pending.length;
  }) as typeof window.setTimeout;
  Object.defineProperty(performance, 'now', { configurable: true, value: () => now });
  /** Fires the timers due next (moving the clock to them); returns how many fired. */
  const fire = () => {
    if (pending.length === 0) return 0;
    pending.sort((a, b) => a.at - b.at);
    const due = pending.splice(0, 1);
    now = Math.max(now, due[0]!.at);
    due[0]!.fn();
    return 1;
  };
  try {
    run(fire);
  } finally {
    window.setTimeout = realSetTimeout;
    delete (performance as { now?: unknown }).now;
  }
}

describe('timers that fire early', () => {
  let bar: HTMLElement;
  beforeEach(() => {
    bar = document.createElement('div');
    for (const action of ['complete', 'expire', 'dispute', 'accept', 'reject']) {
      const b = document.createElement('button');
      b.dataset.sandbox = action;
      b.disabled = true;
      bar.append(b);
    }
    document.body.append(bar);
  });
  afterEach(() => {
    bar.remove();
    Object.assign(state, { session: null, orderState: null, order: null });
  });

  const button = (action: string) => bar.querySelector<HTMLButtonElement>(`[data-sandbox="${action}"]`)!;

  it('the sandbox bar enables Accept and Reject after a receipt opened a dispute, though its 500 ms timer fires at 499.99 ms', () => {
    withEarlyTimers(0.01, (fire) => {
      Object.assign(state, {
        session: 'sess-1',
        orderState: 'dispute',
        order: { status: 'pending', dispute: { id: 'dsp-1', status: 'open' } },
      });
      renderSandbox();
      expect(button('accept').disabled).to.equal(true, 'not at once: the guard against a double tap holds for 500 ms');
      let fired = 0;
      while (fired < 10 && fire()) fired++;
      expect(button('accept').disabled).to.equal(false, 'Accept enabled');
      expect(button('reject').disabled).to.equal(false, 'Reject enabled');
      expect(button('complete').disabled).to.equal(false, 'Complete enabled (the order is still pending)');
      expect(fired).to.be.within(1, 10);
    });
  });

  it('a tap still meets a disabled button for the whole guard: the bar does not enable before 500 ms', () => {
    withEarlyTimers(0, (fire) => {
      Object.assign(state, { session: 'sess-1', orderState: 'pay', order: { status: 'pending', dispute: null } });
      renderSandbox();
      renderSandbox();
      expect(button('complete').disabled).to.equal(true);
      fire();
      expect(button('complete').disabled).to.equal(false, 'enabled at 500 ms');
      let more = 0;
      while (fire()) more++;
      // Complete, Expire and Dispute became usable: one look each, though the bar was drawn twice.
      expect(more).to.equal(2, 'one look per button, however often the bar was drawn');
    });
  });
});
