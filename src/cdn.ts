/**
 * The entry of the CDN files (`dist/cdn/paydesk.js`, and from it `dist/cdn/paydesk.iife.js`) and of
 * the in-memory widget bundle: what `paydesk` does (registers `<paydesk-checkout>`, exports the class).
 * Like the npm build, it carries only the few English messages needed when nothing can be loaded
 * (src/element/i18n/en-offline.ts): every language table, English and Russian included, is a chunk
 * the element fetches as soon as it knows the page's language, in parallel with its first request, so
 * a shopper downloads only their own language. The call is written here, not left to an imported
 * module's side effects, which a bundler may drop (package.json `sideEffects`).
 *
 * Code integrity (src/element/integrity.ts): the CDN build loads every chunk through a check of its
 * digest. A chunk that does not match never runs, and every checkout of the page says so: the
 * `paydesk-error` event with `code: "integrity"` and the error step (where the step cannot change,
 * as on the method choice or a closed order, the event and the step's "cannot load" message).
 */
import { define } from './element/define.js';
import { emit } from './element/events.js';
import { onIntegrityFailure } from './element/integrity.js';
import { PaydeskCheckout } from './element/paydesk-checkout.js';

const connected = new Set<PaydeskCheckout>();
PaydeskCheckout.addInitializer((el) =>
  el.addController({ hostConnected: () => connected.add(el as PaydeskCheckout), hostDisconnected: () => connected.delete(el as PaydeskCheckout) }),
);
onIntegrityFailure(({ message }) => {
  for (const el of connected) {
    if (el.state === 'error') continue;
    const error = { code: 'integrity', message, retryable: false } as const;
    // The element's steps controller is private to it; this entry is the element's own code (and the
    // one place a failure outside any request reaches its machine), so it reaches in by name.
    el['_c'].send({ type: 'failed', error });
    // The machine keeps a step that cannot fail (the method choice, a closed order): the event all the same.
    if ((el.state as string) !== 'error') emit(el, 'paydesk-error', error);
  }
});

define();

export * from './element/index.js';
