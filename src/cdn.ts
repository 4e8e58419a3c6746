/**
 * The entry of the CDN files (`dist/cdn/paydesk.js`, and from it `dist/cdn/paydesk.iife.js`) and of
 * the in-memory widget bundle: registers `<paydesk-checkout>`, painting first.
 *
 * On a slow phone network every kilobyte before the requisites costs about 5 ms, so this entry
 * carries only what starts the work and paints (src/element/first.ts, paint.ts): for each checkout
 * already in the page, the request the element sends first goes out at once, and with it, in
 * parallel, the messages of the shopper's language that the paint says (src/element/i18n/first.ts).
 * The requisites are painted from the answer with the element's own templates and styles, written out
 * as HTML (html-string.ts: no Lit renderer here); then the element's own code (Lit, the machine's later
 * steps, the live status, storage, the bank sheet, the receipt) is loaded and defined, and it takes the
 * painted checkout over with that same answer: no second request, no blank frame.
 *
 * Code integrity (src/element/integrity.ts): every chunk is loaded through a check of its digest. A
 * chunk that does not match never runs, and every checkout of the page says so: the `paydesk-error`
 * event with `code: "integrity"` and the error step (src/element/cdn-element.ts; where the element's
 * own code or a chunk it imports is the changed one, the entry registers the tag as a checkout that can only say so).
 */
import { emit } from './element/events.js';
import { startFirst, type Started } from './element/first.js';
import { loadFirstLanguage, loadWholeLanguage } from './element/i18n/first.js';
import { messagesFor, nearestLang } from './element/i18n/index.js';
import { IntegrityError } from './element/integrity.js';
import { paintFailure, paintFirst } from './element/paint.js';

/** The element's tag. */
export const TAG = 'paydesk-checkout';
export { safeHttpUrl } from './protocol/url.js';
/**
 * The element's class once its code has arrived and registered it (after the first paint), undefined
 * before: a live binding (`customElements.whenDefined(TAG)` resolves with the same class).
 */
export let PaydeskCheckout: typeof import('./element/paydesk-checkout.js').PaydeskCheckout | undefined;
/** How long after the entry ran the element comes anyway while an answer is still awaited (a long search). */
const ELEMENT_WAIT_MS = 1000;
/** The first wait before the element's code is asked for again when it could not be loaded. */
const RETRY_MS = 5000;

let loading: Promise<void> | undefined;
let tries = 0;
/** The element's own code, once; its integrity failure said on every checkout, a network failure tried again. */
function element(): Promise<void> {
  return (loading ??= import('./element/cdn-element.js').then(
    (m) => {
      PaydeskCheckout = m.PaydeskCheckout;
      m.start();
    },
    (e: unknown) => {
      if (e instanceof IntegrityError) return refused(e.message);
      setTimeout(() => ((loading = undefined), void element()), Math.min(RETRY_MS * 2 ** tries++, 60_000));
    },
  ));
}

/**
 * The element's own code was refused (it, or a chunk it needs, did not match its digest): the tag is
 * registered as a checkout that can only say so. Each one, in the page now or added later, fires
 * `paydesk-error` and shows the error instead of anything painted; its `state` is `error`.
 */
function refused(message: string): void {
  if (customElements.get(TAG)) return;
  customElements.define(
    TAG,
    class extends HTMLElement {
      get state(): 'error' {
        return 'error';
      }
      connectedCallback(): void {
        emit(this, 'paydesk-error', { code: 'integrity', message, retryable: false });
        if (paintFailure(this)) return;
        // Not painted: the error in words, without Lit.
        const m = messagesFor(this.getAttribute('locale') || nearestLang(this) || navigator.language);
        const base = document.createElement('section');
        const p = base.appendChild(document.createElement('p'));
        base.setAttribute('part', 'base');
        p.setAttribute('role', 'alert');
        p.textContent = m.errors.default;
        (this.shadowRoot ?? this.attachShadow({ mode: 'open' })).replaceChildren(base);
      }
    },
  );
}

const present = customElements.get(TAG) ? [] : [...document.querySelectorAll<HTMLElement>(TAG)];
const firsts = present.map(startFirst).filter((f): f is Started => f !== null);
if (firsts.length === 0) void element();
else {
  // Each checkout's first-paint messages, in parallel with its request; without them (not loaded) the
  // element shows the checkout.
  const painted = firsts.map((f) => loadFirstLanguage(f.tag).then((speaks) => (speaks ? paintFirst(f) : undefined)));
  // After the paint (or a second after it started while an answer is still awaited), once: the
  // element's own code and, in parallel with it, the whole language table it speaks with (each
  // first-paint chunk carries its whole table's digest; the element's i18n/load.ts finds it under way),
  // while the painted requisites stay (paydesk-checkout.ts).
  let rested = false;
  const rest = () => {
    if (!rested) {
      void element();
      for (const f of firsts) loadWholeLanguage(f.tag);
    }
    rested = true;
  };
  void Promise.all(painted).then(rest, rest);
  setTimeout(rest, ELEMENT_WAIT_MS);
}
