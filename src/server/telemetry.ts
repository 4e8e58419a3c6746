/**
 * OpenTelemetry (DESIGN.md, "Observability"): `paydesk/server` reports through `@opentelemetry/api`
 * only, an optional peer dependency. It is loaded once with a dynamic `import()` (never a static
 * one: the built server needs nothing installed, and no browser bundle includes it); when it is not
 * installed, or when the app registers no SDK, every call here is a no-op.
 *
 * Only API parts present since 1.3 are used (`trace.getTracer`, `trace.setSpan`/`getSpan`,
 * `context.active`/`with`, `metrics.getMeterProvider`, counters and histograms), through the small
 * structural types below, so no OTel type reaches paydesk's `.d.ts` either.
 *
 * Every call site in the server is one line: a wrapping call (`inSessionCreate`, `inWebhook`,
 * `inReconcile`, `inPaidHook`) or a note (`noteSessionChange`, `notePaidOrder`, `noteWebhook`,
 * `noteOrphanFlagged`). The logic is all here.
 */
import { providerTime } from '../provider/matching.js';
import type { Order } from '../provider/schemas.js';
import { CheckoutError } from './errors.js';
import type { FlagReason } from './options.js';
import type { Api, ApiInstrument, ApiMeter, ApiSpan, ApiTracer, Attributes, AttributeValue, SpanContext } from './telemetry-api.js';

/**
 * What telemetry reads of a session record, by shape: sessions.ts and the sweep report here, so
 * importing their types back would close an import cycle.
 */
interface SessionRecord {
  mode: string;
  provider_order_id: string | null;
  client_order_id: string | null;
  view: { status: string; late: boolean };
  payment: { late: boolean; at: number } | null;
  flags: ReadonlyArray<{ reason: string }>;
  /** The order's trace: its create span's context (`traceId-spanId-flags`), see {@link orderTrace}. */
  trace?: string;
}
type SyncSource = string;
type ReconcileReport = Record<'checked' | 'paid' | 'late_paid' | 'closed' | 'flagged' | 'errors' | 'provider_calls', number>;

/** `SpanStatusCode.ERROR` (a constant of the API since 1.0). */
const STATUS_ERROR = 2;
const SCOPE = 'paydesk/server';

/** The fixed names (DESIGN.md, "Observability"). */
export const SPAN = {
  create: 'paydesk.session.create',
  webhook: 'paydesk.webhook.receive',
  reconcile: 'paydesk.reconcile',
  paidHook: 'paydesk.hook.order_paid',
} as const;
export const METRIC = {
  sessionsCreated: 'paydesk.sessions.created',
  ordersPaid: 'paydesk.orders.paid',
  ordersFlagged: 'paydesk.orders.flagged',
  paidDelay: 'paydesk.orders.paid.delay',
  storeErrors: 'paydesk.store.errors',
} as const;
export const ATTR = {
  orderId: 'paydesk.order_id',
  clientOrderId: 'paydesk.client_order_id',
} as const;

interface Instruments {
  sessionsCreated: ApiInstrument;
  ordersPaid: ApiInstrument;
  ordersFlagged: ApiInstrument;
  paidDelay: ApiInstrument;
  storeErrors: ApiInstrument;
}

class Otel {
  readonly tracer: ApiTracer;
  private provider: unknown = null;
  private made: Instruments | null = null;

  constructor(readonly api: Api) {
    // The API's global tracer provider is a proxy: a tracer taken now reports to an SDK registered later.
    this.tracer = api.trace.getTracer(SCOPE);
  }

  /** The instruments of the meter provider registered now (the metrics API has no proxy: re-made when it changes). */
  instruments(): Instruments {
    const provider = this.api.metrics.getMeterProvider();
    if (this.made && provider === this.provider) return this.made;
    const meter = provider.getMeter(SCOPE);
    this.provider = provider;
    this.made = {
      sessionsCreated: meter.createCounter(METRIC.sessionsCreated, { description: 'Payment sessions created (an order or a hosted form at the provider)' }),
      ordersPaid: meter.createCounter(METRIC.ordersPaid, { description: 'Orders recorded paid (attribute late: paid after the order had ended)' }),
      ordersFlagged: meter.createCounter(METRIC.ordersFlagged, { description: 'Orders flagged for a person (attribute reason)' }),
      storeErrors: meter.createCounter(METRIC.storeErrors, { description: 'Store calls that failed or did not answer within storeTimeoutMs (attributes store, method)' }),
      paidDelay: meter.createHistogram(METRIC.paidDelay, {
        description: "From the provider's completion of an order to paydesk recording it paid and starting onOrderPaid (attribute via: webhook, read, sweep)",
        unit: 's',
      }),
    };
    return this.made;
  }
}

// ---------------------------------------------------------------------------------------------
// Loading: once, cached; a failure is a no-op for good.

type Loader = () => Promise<unknown>;

const SPECIFIER = '@opentelemetry/api';
// Not a literal, and marked for bundlers: an app's bundle must neither require the package nor inline it.
const defaultLoader: Loader = () => import(/* webpackIgnore: true */ /* @vite-ignore */ SPECIFIER);

let loader: Loader = defaultLoader;
let loading: Promise<Otel | null> | null = null;
/** undefined while not loaded yet; null when the API is not there. */
let loaded: Otel | null | undefined;

function asApi(mod: unknown): Api | null {
  for (const m of [mod, (mod as { default?: unknown } | null)?.default]) {
    const a = m as Partial<Api> | null | undefined;
    if (
      a &&
      typeof a.trace?.getTracer === 'function' &&
      typeof a.trace.setSpan === 'function' &&
      typeof a.trace.getSpan === 'function' &&
      typeof a.context?.with === 'function' &&
      typeof a.context.active === 'function' &&
      typeof a.metrics?.getMeterProvider === 'function'
    ) {
      return a as Api;
    }
  }
  return null;
}

/**
 * Starts loading `@opentelemetry/api` (once). The handler calls it when it is created, and every
 * wrapped path awaits the same cached promise, so the first request's span is kept.
 */
export function startTelemetry(): void {
  void load();
}

function load(): Promise<Otel | null> {
  if (loading) return loading;
  loading = (async () => {
    let otel: Otel | null = null;
    try {
      const api = asApi(await loader());
      otel = api ? new Otel(api) : null;
    } catch {
      otel = null;
    }
    loaded = otel;
    return otel;
  })();
  return loading;
}

/**
 * For tests and the benchmark only: the loader of `@opentelemetry/api` (null: the real `import()`),
 * and forgets what was loaded.
 * @internal
 */
export function setTelemetryLoader(next: Loader | null): void {
  loader = next ?? defaultLoader;
  loading = null;
  loaded = undefined;
}

/** What loading found: 'loading' (not settled yet), 'absent' (not installed: no-op) or 'api'. @internal */
export function telemetryState(): 'loading' | 'absent' | 'api' {
  return loaded === undefined ? 'loading' : loaded === null ? 'absent' : 'api';
}

/** Runs `use` with the API now when it is loaded, else once it is (a note is never lost to the load). */
function withOtel(use: (otel: Otel) => void): void {
  const run = (otel: Otel | null) => {
    if (!otel) return;
    try {
      use(otel);
    } catch {
      // Telemetry must never cost a payment.
    }
  };
  if (loaded !== undefined) run(loaded);
  else void load().then(run);
}

// ---------------------------------------------------------------------------------------------
// Spans

function orderAttributes(orderId: string | null | undefined, clientOrderId: string | null | undefined): Attributes {
  const out: Attributes = {};
  if (orderId) out[ATTR.orderId] = orderId;
  if (clientOrderId) out[ATTR.clientOrderId] = clientOrderId;
  return out;
}

function setAll(span: ApiSpan, attributes: Attributes | undefined): void {
  if (!attributes) return;
  for (const [k, v] of Object.entries(attributes)) span.setAttribute(k, v);
}

/**
 * An error on a span: status ERROR for a failure of paydesk, the provider or a hook; a refusal of
 * the caller's input (a 4xx CheckoutError) only carries its code. Paydesk's own errors are recorded
 * by name, code and message (no stack: a span is not a place for more than a log line holds);
 * `withStack` (a merchant's hook) records the error as thrown.
 */
function recordError(span: ApiSpan, err: unknown, withStack: boolean): void {
  if (err instanceof CheckoutError) {
    span.setAttribute('paydesk.error_code', err.code);
    if (err.status < 500) return;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  const code = (e as { code?: unknown }).code;
  span.recordException({
    name: e.name,
    message: e.message.slice(0, 500),
    ...((typeof code === 'string' || typeof code === 'number') && { code }),
    ...(withStack && e.stack !== undefined && { stack: e.stack }),
  });
  span.setStatus({ code: STATUS_ERROR, message: e.message.slice(0, 200) });
}

/**
 * Runs `run` inside a span named `name` (the active one while it runs); `describe` adds attributes
 * from its result. Without an SDK (or for a span not sampled) nothing is recorded and `run` is
 * called as it would be without telemetry: no extra await, only the span's context around it.
 */
function inSpan<V>(
  name: string,
  attributes: Attributes,
  run: () => Promise<V>,
  describe?: (value: V) => Attributes | undefined,
  withStack = false,
  order?: SessionRecord,
): Promise<V> {
  if (loaded === undefined) return load().then(() => inSpan(name, attributes, run, describe, withStack, order));
  if (loaded === null) return run();
  const { api, tracer } = loaded;
  const active = api.context.active();
  // In an order's trace (under its create span) when the order has one, linked to what is running
  // now (the webhook delivery or the sweep that brought the news).
  const own = spanContextOf(order?.trace);
  const cause = own && api.trace.getSpan(active)?.spanContext();
  const parent = own ? api.trace.setSpanContext(active, own) : active;
  const span = tracer.startSpan(name, { attributes, ...(cause && validSpan(cause) && { links: [{ context: cause }] }) }, parent);
  const inContext = () => api.context.with(api.trace.setSpan(parent, span), run);
  if (!span.isRecording()) {
    span.end();
    return inContext();
  }
  return recorded(span, inContext, describe, withStack);
}

async function recorded<V>(span: ApiSpan, run: () => Promise<V>, describe: ((value: V) => Attributes | undefined) | undefined, withStack: boolean): Promise<V> {
  try {
    const value = await run();
    if (describe) setAll(span, describe(value));
    return value;
  } catch (err) {
    try {
      recordError(span, err, withStack);
    } catch {
      // never instead of the error itself
    }
    throw err;
  } finally {
    span.end();
  }
}

// ---------------------------------------------------------------------------------------------
// One trace per order: its create span's context is kept with the session; the paid hook runs in
// that trace, and every webhook delivery or sweep that changes the order links to it.

const validSpan = (c: SpanContext) => /^[0-9a-f]{32}$/.test(c.traceId) && !/^0+$/.test(c.traceId) && /^[0-9a-f]{16}$/.test(c.spanId) && !/^0+$/.test(c.spanId);

/** The running span's context as `traceId-spanId-flags` (kept with a new session as its order's trace), or undefined. */
export function orderTrace(): string | undefined {
  if (!loaded) return undefined;
  const c = loaded.api.trace.getSpan(loaded.api.context.active())?.spanContext();
  return c && validSpan(c) ? `${c.traceId}-${c.spanId}-${c.traceFlags & 0xff}` : undefined;
}

function spanContextOf(trace: string | undefined): SpanContext | null {
  const m = typeof trace === 'string' ? /^([0-9a-f]{32})-([0-9a-f]{16})-(\d{1,3})$/.exec(trace) : null;
  return m ? { traceId: m[1]!, spanId: m[2]!, traceFlags: Number(m[3]) & 0xff, isRemote: true } : null;
}

/** The running span (a webhook delivery, a sweep) links to the order it changed. */
function linkToOrder(rec: SessionRecord): void {
  if (!loaded) return;
  const own = spanContextOf(rec.trace);
  const span = loaded.api.trace.getSpan(loaded.api.context.active());
  if (!own || !span?.isRecording() || span.spanContext().spanId === own.spanId) return;
  span.addLink?.({ context: own });
}

/** `paydesk.session.create` around a session's creation; counts `paydesk.sessions.created` (not a replay). */
export function inSessionCreate<T extends { record: SessionRecord; replayed: boolean }>(mode: string, run: () => Promise<T>): Promise<T> {
  return inSpan(SPAN.create, { 'paydesk.mode': mode }, run, (created) => {
    return { ...orderAttributes(created.record.provider_order_id, created.record.client_order_id), 'paydesk.replayed': created.replayed };
  }).then((created) => {
    if (!created.replayed) withOtel((o) => o.instruments().sessionsCreated.add?.(1, { mode: created.record.mode }));
    return created;
  });
}

/** `paydesk.webhook.receive` around a webhook delivery (its order and outcome come from {@link noteWebhook}). */
export function inWebhook<T>(run: () => Promise<T>): Promise<T> {
  return inSpan(SPAN.webhook, {}, run);
}

/** What the webhook log records of a delivery, on its span: the outcome, and the order when the delivery was verified. */
export function noteWebhook(entry: { order_id: string | null; client_order_id: string | null; verified: boolean; outcome: string; http_status: number }): void {
  if (loaded === undefined || loaded === null) return;
  const span = loaded.api.trace.getSpan(loaded.api.context.active());
  if (!span || !span.isRecording()) return;
  setAll(span, {
    'paydesk.webhook.outcome': entry.outcome,
    'paydesk.webhook.verified': entry.verified,
    'http.response.status_code': entry.http_status,
    // An unverified payload's ids are anyone's words: not put on a span.
    ...(entry.verified && orderAttributes(entry.order_id, entry.client_order_id)),
  });
}

/** `paydesk.reconcile` around one sweep, with its figures. */
export function inReconcile<T extends { report: ReconcileReport }>(run: () => Promise<T>): Promise<T> {
  return inSpan(SPAN.reconcile, {}, run, ({ report }) => {
    const out: Attributes = {};
    for (const k of ['checked', 'paid', 'late_paid', 'closed', 'flagged', 'errors', 'provider_calls'] as const) {
      out[`paydesk.reconcile.${k}`] = report[k];
    }
    return out;
  });
}

/** `paydesk.hook.order_paid` around the merchant's onOrderPaid. */
export function inPaidHook(rec: SessionRecord, run: () => void | Promise<void>): Promise<void> {
  const attributes = { ...orderAttributes(rec.provider_order_id, rec.client_order_id), 'paydesk.late': rec.payment?.late ?? false };
  return inSpan(SPAN.paidHook, attributes, async () => run(), undefined, true, rec);
}

// ---------------------------------------------------------------------------------------------
// Metrics

/**
 * A session written (`before` → `after`, one winning write of the store): counts it paid
 * (`paydesk.orders.paid`, `late`) when it became paid, and each new flag (`paydesk.orders.flagged`, `reason`).
 */
export function noteSessionChange(before: SessionRecord, after: SessionRecord): void {
  linkToOrder(after);
  const paid = before.view.status !== 'paid' && after.view.status === 'paid';
  const flags = after.flags.length > before.flags.length ? after.flags.slice(before.flags.length) : [];
  if (!paid && flags.length === 0) return;
  withOtel((otel) => {
    const i = otel.instruments();
    if (paid) i.ordersPaid.add?.(1, { late: after.payment?.late ?? after.view.late });
    for (const f of flags) i.ordersFlagged.add?.(1, { reason: f.reason });
  });
}

/**
 * A provider order applied to a session: when that made it paid, the delay from the provider's
 * completion (the order's `updated_at`) to then, by how paydesk learned of it (`via`).
 */
export function notePaidOrder(res: { before: SessionRecord; after: SessionRecord } | null, order: Order, via: SyncSource): void {
  if (!res || res.before.view.status === 'paid' || res.after.view.status !== 'paid' || !res.after.payment) return;
  const completed = providerTime(order.updated_at);
  if (!Number.isFinite(completed)) return;
  const seconds = Math.max(0, (res.after.payment.at - completed) / 1000);
  withOtel((otel) => otel.instruments().paidDelay.record?.(seconds, { via }));
}

/** A paid order without a session, flagged `session_lost` (counted once: on its first attempt). */
export function noteOrphanFlagged(orphan: { attempts?: number }): void {
  if ((orphan.attempts ?? 0) > 0) return;
  const reason: FlagReason = 'session_lost';
  withOtel((otel) => otel.instruments().ordersFlagged.add?.(1, { reason }));
}

/** A store call that failed or was not answered in time (src/server/store-guard.ts). */
export function noteStoreError(store: string, method: string): void {
  withOtel((otel) => otel.instruments().storeErrors.add?.(1, { store, method }));
}
