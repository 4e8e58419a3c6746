/**
 * The element as the CDN files load it (src/cdn.ts), after their first paint: registers
 * `<paydesk-checkout>` and shows every integrity failure of the page's chunks on every checkout of
 * the page (src/element/integrity.ts): the `paydesk-error` event with `code: "integrity"` and the error
 * step (where the step cannot change, as on the method choice or a closed order, the event and the
 * step's "cannot load" message). The call is written here, not left to an imported module's side
 * effects, which a bundler may drop (package.json `sideEffects`).
 */
import { define } from './define.js';
import { emit } from './events.js';
import { onIntegrityFailure } from './integrity.js';
import { PaydeskCheckout } from './paydesk-checkout.js';
import { FIRST, type FirstRequest } from './first.js';

const connected = new Set<PaydeskCheckout>();
PaydeskCheckout.addInitializer((host) => {
  const el = host as PaydeskCheckout;
  // The first paint's (paint.ts): its request, which the element takes over (first.ts `FIRST`), and the pay view's styles it adopted, kept past the element's own render root (which
  // adopts the element's styles alone) until the element's pay view brings the same sheets.
  const painted = el as unknown as Record<symbol, FirstRequest | undefined>;
  let first = painted[FIRST];
  delete painted[FIRST];
  const sheets = [...(el.shadowRoot?.adoptedStyleSheets ?? [])];
  el.addController({
    hostConnected: () => {
      connected.add(el);
      // Before the element's first update, which starts it. (Its steps controller is private to it;
      // this module is the element's own code, so it reaches in by name.)
      if (first) el['_c'].req.first = first;
      first = undefined;
      const root = el.shadowRoot;
      if (root && sheets.length > 0) root.adoptedStyleSheets = [...new Set([...root.adoptedStyleSheets, ...sheets])];
      sheets.length = 0;
    },
    hostDisconnected: () => connected.delete(el),
  });
});

/** Registers the element; every integrity failure, past and to come, reaches the checkouts of the page. */
export function start(): void {
  define();
  onIntegrityFailure(({ message }) => {
    for (const el of connected) {
      if (el.state === 'error') continue;
      const error = { code: 'integrity', message, retryable: false } as const;
      // The element's steps controller is private to it; this module is the element's own code (and the
      // one place a failure outside any request reaches its machine), so it reaches in by name.
      el['_c'].send({ type: 'failed', error });
      // The machine keeps a step that cannot fail (the method choice, a closed order): the event all the same.
      if ((el.state as string) !== 'error') emit(el, 'paydesk-error', error);
    }
  });
}

export { PaydeskCheckout };
