import { PaydeskCheckout } from './paydesk-checkout.js';

export const TAG = 'paydesk-checkout';

/** Registers `<paydesk-checkout>` unless the tag is already taken (never throws on a second copy). */
export function define(registry: CustomElementRegistry = customElements): void {
  if (!registry.get(TAG)) registry.define(TAG, PaydeskCheckout);
}
