/**
 * Issue 22, "webhook → paid on screen", the element's half: the hops of our own code from the live
 * status's `order` message to the paid step, committed (the steps controller's state becomes `paid`)
 * and rendered (the view function that builds the paid step: closed-view.ts `view`, found by the
 * reads of the paid state while the element renders; the helpers it calls return before it does). How
 * hops are counted: test/hop-path.ts. The render runs in Lit's update, a microtask the commit's
 * `requestUpdate` queued: that crossing counts as one hop. The figures are printed to the console.
 */
import { expect } from '@open-wc/testing';
import { describePath, followPath, framesOf, type Probe } from '../hop-path.js';
import type { MachineState } from '../../src/element/machine.js';
import { mount } from './helpers/mount.js';

/** The element's share of issue 22's goal (≤ 10 from webhook to screen). */
const ELEMENT_HOPS_CEILING = 7;

describe('live status → paid on screen: the hops of our code', () => {
  it('from the order message to the paid step, committed and rendered', async () => {
    const h = await mount({ paymentMethodId: 'm-sbp' });
    await h.until('pay');
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    const probes: Probe[] = [];
    const probe = (label: string) => probes.push({ label, frames: framesOf(new Error().stack ?? '') }) - 1;
    // The steps controller holds the machine's state: watch it being set to paid, and read while paid.
    const steps = (h.el as unknown as { _c: { machine: MachineState } })._c;
    let state = steps.machine;
    let commit: number | undefined;
    const reads: number[] = [];
    Object.defineProperty(steps, 'machine', {
      configurable: true,
      get: () => {
        if (commit !== undefined && state.name === 'paid') reads.push(probe('read'));
        return state;
      },
      set: (next: MachineState) => {
        if (commit === undefined && next.name === 'paid') commit = probe('commit');
        state = next;
      },
    });
    try {
      h.server.update(h.server.session, { status: 'paid', provider_status: 'Completed' });
      await h.until('paid');
      await h.el.updateComplete;
    } finally {
      Error.stackTraceLimit = limit;
    }
    expect(commit, 'the paid state was committed').to.not.equal(undefined);
    const fromMessage = (f: { file: string }) => f.file === 'src/element/live.ts';
    const committed = followPath(probes, commit!, fromMessage);
    const rendering = reads.filter((i) => probes[i]!.frames.some((f) => f.file === 'src/element/paydesk-checkout.ts' && /(^|\.)render$/.test(f.fn)));
    expect(rendering.length, 'the paid step was rendered').to.be.greaterThan(0);
    const inView = (i: number) => probes[i]!.frames.findIndex((f) => f.file === 'src/element/closed-view.ts');
    const end = rendering.find((i) => inView(i) >= 0);
    expect(end, 'the closed view built the paid step').to.not.equal(undefined);
    probes[end!]!.frames = probes[end!]!.frames.slice(0, inView(end!) + 1);
    const rendered = followPath(probes, end!, fromMessage, () => commit);
    console.log(`element: order message → paid committed: ${describePath(committed)}`);
    console.log(`element: order message → paid rendered: ${describePath(rendered)}`);
    expect(committed.hops, 'the stream listener hands the machine its event').to.be.at.most(2);
    expect(rendered.hops).to.be.at.most(ELEMENT_HOPS_CEILING);
  });
});
