/**
 * Opening the bank sheet and the receipt upload from a view: their code is loaded on the way (again
 * after a failure). The element's views pass {@link open} to views.ts `contextOf`; a static paint
 * (static-view.ts: paydesk/ssr, the CDN files' first paint) cannot open anything and does not carry it.
 */
import { ApiError } from './api.js';
import type { ReceiptLike, SheetLike, ViewHost } from './hosts.js';

/** The module `name`, loaded now if need be (again after a failure); rejects when it cannot be loaded. */
async function need<K extends 'banks' | 'receipt'>(host: ViewHost, name: K): Promise<Needed[K]> {
  const code = host.code;
  code.retry(name);
  code.load(name);
  for (;;) {
    const m = code.get(name) as Needed[K] | undefined;
    if (m) return m;
    if (code.state(name) === 'error') throw new ApiError('network', `${name} could not be loaded`, true);
    await host.loading;
  }
}
interface Needed {
  banks: { BankSheetController: new (host: ViewHost) => SheetLike };
  receipt: { ReceiptController: new (host: ViewHost) => ReceiptLike };
}

/** Opens the bank sheet (its code, and for an SBP link the bank table, load on the way; focus returns to `opener`) or the receipt upload. */
export function open(host: ViewHost, what: 'banks' | 'receipt', opener: HTMLElement | null = null): void {
  const opened =
    what === 'banks'
      ? need(host, 'banks').then((m) => (host.sheet ??= new m.BankSheetController(host)).open(opener))
      : need(host, 'receipt').then((m) => (host.receipt ??= new m.ReceiptController(host)).show());
  host.wait(opened.catch(() => host.el.requestUpdate()));
}
