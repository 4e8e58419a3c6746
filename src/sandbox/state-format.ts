/**
 * The sandbox state file's format (see state-file.ts): every field checked on load, and the error a
 * file that cannot be used throws.
 */
import { z } from 'zod';
import { BUTTON_NAMES, ORDER_SIDES } from '../provider/facts.js';
import { DISPUTE_FILE_TYPES } from '../protocol/index.js';
import { TERMINAL_CURRENCIES } from './currencies.js';

export const STATE_FORMAT = 'paydesk-sandbox-state';
export const STATE_VERSION = 1;

/** A state file that cannot be used: the message says which file, what is wrong, and what to do. */
export class SandboxStateError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`The sandbox state file ${path} cannot be used: ${reason}. Move it away (or delete it) to start afresh; it was left as it is.`);
    this.name = 'SandboxStateError';
    this.path = path;
  }
}

// ---------------------------------------------------------------------------------------------
// The format (checked field by field on load)

const Ms = z.number().finite();
const NullableMs = Ms.nullable();
const Text = z.string();
const NullableText = z.string().nullable();
const Minor = z.string().regex(/^-?\d{1,30}$/, 'expected an integer in minor units');

const SettingsSchema = z.object({
  name: Text,
  currency: z.enum(TERMINAL_CURRENCIES),
  integrationType: z.enum(['plain', 'order_with_form']),
  formActivated: z.boolean(),
  enabledButtons: z.array(z.enum(BUTTON_NAMES)),
  webhookUrl: NullableText,
  rateLimitPerMinute: z.number().int().positive().nullable(),
  antiFraudPendingLimit: z.number().int().positive(),
  autoPayAfterSeconds: z.number().int().positive().nullable(),
  openingBalance: Text,
  seedHistory: z.boolean(),
  seedCompleted: z.boolean(),
});

const OrderSchema = z.object({
  seq: z.number().int(),
  id: Text,
  clientOrderId: Text,
  side: z.enum(ORDER_SIDES),
  methodId: Text,
  initialMethodId: Text,
  amount: Text,
  requestedAmount: Text,
  fee: Text,
  fixedFee: z.number().nullable(),
  status: Text,
  holderName: Text,
  holderAccount: Text,
  requisiteKey: Text,
  customerName: NullableText,
  customerAccount: NullableText,
  customerBank: NullableText,
  paymentLink: NullableText,
  webhookUrl: NullableText,
  formUrl: NullableText,
  createdMs: Ms,
  updatedMs: Ms,
  expiresMs: Ms,
  userId: NullableText,
  uniqueAmount: z.boolean(),
  sessionId: NullableText,
  frozen: NullableText,
  endedAs: NullableText,
});

const SessionSchema = z.object({
  seq: z.number().int(),
  id: Text,
  clientOrderId: Text,
  requestedAmount: Text,
  amount: Text,
  paymentMethodType: NullableText,
  nspkCode: NullableText,
  buttonName: NullableText,
  customerBank: NullableText,
  paymentMethodId: NullableText,
  orderId: NullableText,
  redirectUrl: NullableText,
  supportUrl: NullableText,
  returnUrl: NullableText,
  searchCount: z.number().int(),
  selection: z.boolean(),
  createdMs: Ms,
  updatedMs: Ms,
  uniqueAmount: z.boolean(),
  userId: NullableText,
  state: Text,
  requisitesStartMs: NullableMs,
  requisitesExpiresMs: NullableMs,
  confirmationStartMs: NullableMs,
  confirmationExpiresMs: NullableMs,
  expiresMs: Ms,
  ipAddress: NullableText,
});

const FileSchema = z.object({
  id: z.string().regex(/^[0-9a-f-]{36}$/, 'expected a file id'),
  name: Text,
  contentType: z.enum(DISPUTE_FILE_TYPES),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const DisputeSchema = z.object({
  seq: z.number().int(),
  id: Text,
  orderId: Text,
  processed: z.boolean(),
  accepted: z.boolean().nullable(),
  createdMs: Ms,
  processedMs: NullableMs,
  claimedAmount: NullableText,
  source: z.enum(['seed', 'control', 'api', 'form']),
  files: z.array(FileSchema),
  comment: NullableText,
});

const TransactionSchema = z.object({
  seq: z.number().int(),
  id: Text,
  amount: Text,
  type: z.enum(['deposit', 'withdrawal']),
  createdMs: Ms,
  description: Text,
});

const TerminalSchema = z.object({
  apiKey: z.string().min(1).max(256),
  id: Text,
  depositId: Text,
  clientId: Text,
  webhookSecret: z.string().min(1),
  preset: SettingsSchema,
  settings: SettingsSchema,
  data: z.object({
    seq: z.number().int().nonnegative(),
    rotation: z.number().int().nonnegative(),
    availableMinor: Minor,
    frozenMinor: Minor,
    orders: z.array(OrderSchema),
    sessions: z.array(SessionSchema),
    disputes: z.array(DisputeSchema),
    transactions: z.array(TransactionSchema),
    lateCredited: z.array(Text),
    webhookLog: z.array(z.looseObject({ request_id: Text, order_id: Text, status: Text })),
  }),
});

export const StateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  savedAt: Text,
  clockOffsetMs: Ms,
  masterSecret: z.string().min(1),
  mainApiKey: z.string().min(1),
  terminals: z.array(TerminalSchema),
});

export type PersistedState = z.infer<typeof StateSchema>;
export type PersistedTerminal = z.infer<typeof TerminalSchema>;
