import type { Messages } from './types.js';
import offline from './en-offline.js';

/**
 * English: the complete table every other language falls back to, key by key. What the element needs
 * when nothing else can be loaded lives in en-offline.ts, which the element's own module carries.
 */
const messages: Messages = {
  ...offline,
  copy: 'Copy',
  copied: 'Copied',
  copiedAnnounce: '{what} copied',
  copyFailed: 'Could not copy. Select the text and copy it yourself.',

  chooseHint: 'The fee is shown for each method.',
  fee: 'fee {fee}',
  noFee: 'no fee',
  total: 'To pay {total}',

  searchingTitle: 'Finding payment details',
  searchingText: 'This usually takes a few seconds. Please keep this page open.',

  payTitle: 'Make a transfer',
  amountLabel: 'Amount to send',
  amountExact: 'Send exactly this amount in one transfer.',
  amountChanged: 'Send exactly {amount}, not {requested}: the exact amount identifies your payment.',
  cardLabel: 'Card number',
  phoneLabel: 'Phone number',
  accountLabel: 'Account number',
  linkLabel: 'Payment link',
  holderLabel: 'Recipient',
  bankLabel: 'Bank',
  methodLabel: 'Method',
  timerLabel: 'Time left to pay',
  payBy: 'Pay by {time}',
  minutesLeft: { one: '{n} minute left to pay', other: '{n} minutes left to pay' },
  lastMinute: 'Less than a minute left to pay',
  qrLabel: 'QR code for the SBP payment of {amount}',
  qrHint: 'Scan it with your bank app',
  openBankApp: 'Open in bank app',
  openInBank: 'Open {bank}',
  otherBanks: 'Pay in your bank app',
  iPaid: 'I have paid',
  openForm: 'Open the payment page',
  formTitle: 'Payment page',

  confirmingTitle: 'Checking your payment',
  confirmingText: 'This can take a few minutes. Keep this page open: you will see the result here.',

  paidTitle: 'Payment received',
  paidText: '{amount} received. Thank you!',
  redirectIn: { one: 'Returning to the shop in {n} second', other: 'Returning to the shop in {n} seconds' },
  redirectNow: 'Return now',

  expiredTitle: 'Time is up',
  expiredText: 'These payment details are no longer valid. Do not send money to them.',
  renew: 'Get new payment details',

  cancelledTitle: 'Payment cancelled',
  cancelledText: 'This payment was cancelled. If you have already sent money, contact support.',

  errors: {
    ...offline.errors,
    invalid_response: 'The payment service sent an unexpected answer.',
    provider_unavailable: 'The payment service is temporarily unavailable. Please try again in a minute.',
    rate_limited: 'Too many attempts. Please wait a minute and try again.',
    no_traders: 'No payment details are available right now. Try again in a minute or choose another method.',
    method_unavailable: 'No payment method is available for this order.',
    no_payment_method: 'Choose a payment method.',
    payment_method_not_found: 'This payment method is not available. Choose another one.',
    amount_out_of_limits: 'This amount cannot be paid with this method. Choose another one.',
    customer_blacklisted: 'This payment cannot be accepted. Please contact support.',
    button_not_enabled: 'This bank is not available for payment. Choose another one.',
    form_not_activated: 'The payment page is not available. Please contact the shop.',
    order_not_found: 'This order was not found.',
    session_invalid: 'This payment link is not valid.',
    session_expired: 'This payment session has ended.',
    forbidden_origin: 'Payments are not allowed from this page.',
    idempotency_conflict: 'This payment was already started with other settings. Please reload the page.',
  },
};

export default messages;
