/**
 * Reading the sandbox state file (see state-file.ts): the file checked field by field, a terminal's
 * settings merged with this start's preset, and its data put back into the engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toMinor } from '../money/index.js';
import type { SandboxEngine } from './engine.js';
import { catalogFor } from './payment-methods.js';
import type { DisputeFileRecord, DisputeRecord, OrderRecord, SessionRecord, TransactionRecord, WebhookDelivery } from './records.js';
import { isFinalSessionState } from './session-states.js';
import { trackUser } from './anti-fraud.js';
import type { Terminal, TerminalIdentity, TerminalSettings } from './terminal.js';
import { insertByTime } from './time-index.js';
import { SandboxStateError, STATE_FORMAT, STATE_VERSION, StateSchema, type PersistedState, type PersistedTerminal } from './state-format.js';

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
