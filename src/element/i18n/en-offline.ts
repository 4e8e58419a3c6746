import type { Messages } from './types.js';

/** The messages the element may need when nothing else can be loaded (no connection, a chunk failing). */
export type OfflineKey = 'region' | 'start' | 'loading' | 'retry' | 'chooseTitle' | 'support' | 'returnToShop' | 'errorTitle';
export type OfflineErrorCode = 'default' | 'config' | 'network' | 'timeout';
export type OfflineMessages = Pick<Messages, OfflineKey> & { errors: Pick<Messages['errors'], OfflineErrorCode> };

/**
 * English, the part the element's own module carries: what the idle, loading and error steps and the
 * footer say, so the checkout can always say what went wrong. The rest of English (en.ts) and every
 * other language are loaded on demand.
 */
const messages: OfflineMessages = {
  region: 'Checkout',
  start: 'Continue to payment',
  loading: 'Loading…',
  retry: 'Try again',
  chooseTitle: 'Choose how to pay',
  support: 'Support',
  returnToShop: 'Back to the shop',
  errorTitle: 'Something went wrong',
  errors: {
    default: 'Something went wrong. Please try again.',
    config: 'The checkout is not set up correctly.',
    network: 'No connection. Check your internet and try again.',
    timeout: 'The payment service is taking too long. Please try again.',
  },
};

export default messages;
