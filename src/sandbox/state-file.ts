/**
 * The sandbox's state on disk (`createSandbox({ stateFile })`, `--state-file PATH`), so a restart of
 * the demo loses nothing: every terminal's settings and data (orders, form sessions, disputes with
 * their receipts, transactions, balances, webhook log), the clock's offset and the secrets. Pending
 * webhook retries are dropped (their log entries read `cancelled`).
 *
 * Written atomically (a temp file, fsync, rename, fsync of the folder), so after a `kill -9` or a
 * power cut at any moment the file is the last complete save. The app answers a request only once
 * the file holds what the request changed ({@link StateFileWriter.durable}: the requests of one
 * moment share one write), and a webhook goes out only once the change it reports is in the file;
 * changes no request made (expiry sweeps, webhook attempts) are saved a moment later, and on close.
 * Receipts go once each into `<stateFile>.files/`. Read on start; a file that cannot be read is a
 * {@link SandboxStateError} naming the problem, and nothing is overwritten. One sandbox per file.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open as openFile, rm as removeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { toMinor } from '../money/index.js';
import { BUTTON_NAMES, ORDER_SIDES } from '../provider/facts.js';
import { DISPUTE_FILE_TYPES } from '../protocol/index.js';
import { TERMINAL_CURRENCIES } from './currencies.js';
import type { SandboxEngine } from './engine.js';
import { catalogFor } from './payment-methods.js';
import type { DisputeFileRecord, DisputeRecord, OrderRecord, SessionRecord, TransactionRecord, WebhookDelivery } from './records.js';
import { isFinalSessionState } from './session-states.js';
import { trackUser } from './anti-fraud.js';
import type { Terminal, TerminalIdentity, TerminalSettings } from './terminal.js';
import { insertByTime } from './time-index.js';

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

const StateSchema = z.object({
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

// ---------------------------------------------------------------------------------------------
// Reading

/** The state in `path`; null when there is no such file. Throws {@link SandboxStateError} when it cannot be used. */
export function readState(path: string): PersistedState | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new SandboxStateError(path, `it cannot be read (${(err as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SandboxStateError(path, `it is not JSON (${(err as Error).message})`);
  }
  if (typeof json === 'object' && json !== null && (json as { format?: unknown }).format !== STATE_FORMAT) {
    throw new SandboxStateError(path, `it is not a paydesk sandbox state file (no "format": "${STATE_FORMAT}")`);
  }
  if (typeof json === 'object' && json !== null && (json as { version?: unknown }).version !== STATE_VERSION) {
    throw new SandboxStateError(path, `its version ${JSON.stringify((json as { version?: unknown }).version)} is not ${STATE_VERSION}`);
  }
  const parsed = StateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SandboxStateError(path, `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Settings to run with: this start's preset, plus what was changed at run time (stored settings that differ from the stored preset). */
export function mergeSettings(preset: TerminalSettings, stored: PersistedTerminal): TerminalSettings {
  const out: TerminalSettings = { ...preset, enabledButtons: [...preset.enabledButtons] };
  for (const key of Object.keys(stored.settings) as (keyof TerminalSettings)[]) {
    if (JSON.stringify(stored.settings[key]) !== JSON.stringify(stored.preset[key])) {
      (out as unknown as Record<string, unknown>)[key] = structuredClone(stored.settings[key]);
    }
  }
  return out;
}

export function identityOf(stored: PersistedTerminal): TerminalIdentity {
  return { id: stored.id, depositId: stored.depositId, clientId: stored.clientId };
}

/**
 * Puts a stored terminal's data into `terminal` (whose settings are already in place and of the
 * same currency). Unpaid orders fall due again (an order that expired while the sandbox was down
 * expires at the first look, and its webhook goes out).
 */
export function restoreData(engine: SandboxEngine, terminal: Terminal, stored: PersistedTerminal, filesDir: string, path: string): void {
  const fail = (reason: string) => new SandboxStateError(path, `terminal ${stored.apiKey}: ${reason}`);
  const catalog = catalogFor(terminal.currency);
  const data = terminal.data;
  data.seq = stored.data.seq;
  data.rotation = stored.data.rotation;
  data.availableMinor = BigInt(stored.data.availableMinor);
  data.frozenMinor = BigInt(stored.data.frozenMinor);
  const orders = new Map<string, OrderRecord>();
  for (const o of stored.data.orders) {
    const method = catalog.method(o.methodId);
    if (!method) throw fail(`order ${o.id} names payment method ${o.methodId}, which a ${terminal.currency} terminal does not have`);
    const { methodId: _m, ...fields } = o;
    let key: number;
    try {
      key = Number(toMinor(o.amount, terminal.digits));
    } catch {
      throw fail(`order ${o.id} has the amount ${JSON.stringify(o.amount)}, which is not a decimal of ${terminal.currency}`);
    }
    const order: OrderRecord = { ...fields, method, slot: -1, amountKey: key };
    orders.set(order.id, order);
    engine.orders.insert(terminal, order);
  }
  for (const s of stored.data.sessions) {
    const order = s.orderId === null ? null : orders.get(s.orderId);
    if (order === undefined) throw fail(`form session ${s.id} names order ${s.orderId}, which is not in the file`);
    const { orderId: _o, ...fields } = s;
    const session: SessionRecord = { ...fields, side: 'Buy', order };
    engine.sessions.insert(terminal, session);
    if (session.userId !== null && order === null && !isFinalSessionState(session.state)) trackUser(terminal, session.userId, session);
  }
  for (const d of stored.data.disputes) {
    const order = orders.get(d.orderId);
    if (!order) throw fail(`dispute ${d.id} names order ${d.orderId}, which is not in the file`);
    const files: DisputeFileRecord[] = d.files.map((f) => ({ ...f, data: null, path: join(filesDir, f.id) }));
    const { orderId: _o, ...fields } = d;
    const dispute: DisputeRecord = { ...fields, order, files };
    engine.disputes.insert(terminal, dispute);
  }
  for (const x of stored.data.transactions) insertByTime(data.transactions, { ...x } satisfies TransactionRecord);
  data.lateCredited = new Set(stored.data.lateCredited);
  data.webhookLog = stored.data.webhookLog.map((d) => {
    const delivery = structuredClone(d) as unknown as WebhookDelivery;
    // Pending retries do not survive a restart.
    if (delivery.status === 'pending') delivery.status = 'cancelled';
    delivery.next_attempt_at = null;
    return delivery;
  });
}

// ---------------------------------------------------------------------------------------------
// Writing

function terminalState(t: Terminal, filesDir: string): PersistedTerminal {
  const d = t.data;
  return {
    apiKey: t.apiKey,
    id: t.id,
    depositId: t.depositId,
    clientId: t.clientId,
    webhookSecret: t.webhookSecret,
    preset: { ...t.preset, enabledButtons: [...t.preset.enabledButtons] },
    settings: { ...t.settings, enabledButtons: [...t.settings.enabledButtons] },
    data: {
      seq: d.seq,
      rotation: d.rotation,
      availableMinor: d.availableMinor.toString(),
      frozenMinor: d.frozenMinor.toString(),
      orders: d.orders.map(({ method, slot: _s, amountKey: _k, ...o }) => ({ ...o, methodId: method.id })),
      sessions: d.sessions.map(({ order, side: _side, ...s }) => ({ ...s, orderId: order?.id ?? null })),
      disputes: d.disputes.map(({ order, files, ...x }) => ({
        ...x,
        orderId: order.id,
        files: files.map((f) => {
          if (f.path === null || dirname(f.path) !== filesDir) {
            const target = join(filesDir, f.id);
            if (f.data === null) throw new Error(`the receipt ${f.id} has no content to save`);
            writeAtomically(target, f.data);
            f.path = target;
          }
          return { id: f.id, name: f.name, contentType: f.contentType, size: f.size, sha256: f.sha256 };
        }),
      })),
      transactions: d.transactions.map((x) => ({ ...x })),
      lateCredited: [...d.lateCredited],
      webhookLog: d.webhookLog.map((x) => structuredClone(x) as unknown as PersistedTerminal['data']['webhookLog'][number]),
    },
  };
}

/** Writes `content` to `path` through a temp file in the same folder, flushed, then renamed over it. */
export function writeAtomically(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/**
 * The async form of {@link writeAtomically}, with the folder fsynced after the rename (so the rename
 * itself survives a power cut). `superseded()` is asked just before the rename: true when a newer
 * save has landed meanwhile, and then this older one is dropped.
 */
async function writeAtomicallyAsync(path: string, content: string, temp: string, superseded: () => boolean): Promise<boolean> {
  const fh = await openFile(temp, 'w', 0o600);
  try {
    await fh.writeFile(content, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  if (superseded()) {
    await removeFile(temp, { force: true });
    return false;
  }
  renameSync(temp, path);
  try {
    const dir = await openFile(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // A platform that cannot fsync a folder (Windows): the rename is as durable as it makes it.
  }
  return true;
}

export interface StateFileWriter {
  /** Schedules a save (debounced): for changes no request waits for. */
  changed(): void;
  /**
   * Resolves once the file holds every change made before the call. Calls of one moment share one
   * write (coalesced); rejects when the file cannot be written (the next call tries again).
   */
  durable(): Promise<void>;
  /** Saves now; throws when it cannot. */
  save(): void;
  /** Saves now if anything changed since the last save. */
  flush(): void;
  /** Saves if needed and stops. */
  close(): void;
}

export function filesDirOf(path: string): string {
  return `${path}.files`;
}

/**
 * Saves `engine`'s state to `path`: when a request waits for it ({@link StateFileWriter.durable}), a
 * moment after other changes (`debounceMs`), and on close. A failed debounced save is logged and
 * tried again at the next change. Temp files a killed process left behind are removed at start.
 */
export function createStateWriter(o: {
  path: string;
  engine: SandboxEngine;
  mainApiKey: string;
  masterSecret: string;
  clockOffsetMs: () => number;
  debounceMs: number;
  onError: (err: unknown) => void;
}): StateFileWriter {
  const filesDir = filesDirOf(o.path);
  let timer: NodeJS.Timeout | null = null;
  /** The engine version the file holds (-1: unknown, save whatever there is). */
  let savedVersion = -1;
  let closed = false;
  /** The async write under way, which every durable() of the moment waits for. */
  let writing: Promise<void> | null = null;
  let temps = 0;
  removeStaleTemps(o.path);

  const snapshot = () => {
    const version = o.engine.version;
    const state: PersistedState = {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date().toISOString(),
      clockOffsetMs: o.clockOffsetMs(),
      masterSecret: o.masterSecret,
      mainApiKey: o.mainApiKey,
      terminals: [...o.engine.terminals.values()].map((t) => terminalState(t, filesDir)),
    };
    return { version, state, text: `${JSON.stringify(state)}\n` };
  };
  const saved = (version: number, state: PersistedState) => {
    if (version > savedVersion) savedVersion = version;
    removeOrphanedReceipts(filesDir, state);
  };
  const save = () => {
    if (o.engine.version === savedVersion) return;
    const { version, state, text } = snapshot();
    writeAtomically(o.path, text);
    saved(version, state);
  };
  /** One async write of the state as it is once the requests of this moment have made their changes. */
  const writeOnce = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (o.engine.version <= savedVersion) return;
    const { version, state, text } = snapshot();
    const temp = join(dirname(o.path), `.${basename(o.path)}.${process.pid}.${++temps}.tmp`);
    try {
      if (await writeAtomicallyAsync(o.path, text, temp, () => savedVersion >= version)) saved(version, state);
    } catch (err) {
      await removeFile(temp, { force: true }).catch(() => undefined);
      throw err;
    }
  };
  const durable = async () => {
    const target = o.engine.version;
    while (savedVersion < target) {
      writing ??= writeOnce().finally(() => {
        writing = null;
      });
      await writing;
    }
  };
  const trySave = () => {
    timer = null;
    try {
      save();
    } catch (err) {
      o.onError(err);
    }
  };
  return {
    durable,
    save() {
      if (timer) clearTimeout(timer);
      timer = null;
      savedVersion = -1;
      save();
    },
    changed() {
      if (closed || timer) return;
      timer = setTimeout(() => {
        timer = null;
        durable().catch(o.onError);
      }, o.debounceMs);
    },
    flush() {
      if (timer) clearTimeout(timer);
      trySave();
    },
    close() {
      if (closed) return;
      this.flush();
      closed = true;
    },
  };
}

/** Temp files of this state file that a killed process left (never renamed into place). */
function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    try {
      rmSync(join(dirname(path), name), { force: true });
    } catch {
      // Not a file of ours after all (a folder of that name): left alone.
    }
  }
}

/** Receipts of disputes that are gone (a reset) are removed from the files folder. */
function removeOrphanedReceipts(filesDir: string, state: PersistedState): void {
  let names: string[];
  try {
    names = readdirSync(filesDir);
  } catch {
    return;
  }
  const kept = new Set(state.terminals.flatMap((t) => t.data.disputes.flatMap((d) => d.files.map((f) => f.id))));
  for (const name of names) if (!kept.has(name) && !name.startsWith('.')) rmSync(join(filesDir, name), { force: true });
}
