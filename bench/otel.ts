/**
 * What OpenTelemetry costs `POST /sessions`: the same handler and in-process sandbox, one request at
 * a time, in three states taken in turn within each run (so a noisy machine moves all three):
 *
 *   absent  `@opentelemetry/api` cannot be loaded (its import fails, as when it is not installed)
 *   no-op   the API is loaded, no SDK registered (what every app without OpenTelemetry gets)
 *   SDK     an SDK registered: tracer provider with a batch processor, context manager, meter provider
 *
 * Each run takes the three states in turn, in blocks of 50 requests (the order turning each block);
 * figures: the per-run ratio of mean CPU time per request, no-op ÷ absent and SDK ÷ absent, median
 * over runs. CPU time of this process (user + system), not wall time: on a shared machine another
 * process's load does not land on one state. In process (the client talks to the sandbox's fetch), so
 * the ratio is of the whole create path, the sandbox's share included.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { createProviderClient } from '../src/provider/index.js';
import { createSandbox } from '../src/sandbox/index.js';
import { createCheckoutHandler } from '../src/server/index.js';
import { setTelemetryLoader } from '../src/server/telemetry.js';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { median } from './stats.js';

export interface OtelFigures {
  runs: number;
  perState: number;
  /** Mean CPU ms of this process per POST /sessions (handler and in-process sandbox), median over runs. */
  absentMs: number;
  noopMs: number;
  sdkMs: number;
  /** Per-run ratios, median over runs. */
  noopRatio: number;
  sdkRatio: number;
  /** Spans the SDK state exported (a check that it did trace). */
  spans: number;
}

const KEY = 'bench_otel_key_0123456789abcdef';

class Reader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** A full GC before each block, so no block pays for the garbage of the one before it. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

type State = 'absent' | 'noop' | 'sdk';
const STATES: readonly State[] = ['absent', 'noop', 'sdk'];
/** Requests per block of one state. */
const BLOCK = 50;

export async function benchOtel(opts: { runs: number; perState: number; warmup: number }): Promise<OtelFigures> {
  const sandbox = createSandbox({ apiKey: KEY, seed: false, sweepIntervalMs: 0, webhookRetryDelaysMs: [] });
  const client = createProviderClient({ baseUrl: 'http://sandbox.bench', apiKey: KEY, fetch: (i, init) => sandbox.fetch(new Request(i, init)), maxRetries: 0 });
  const handler = createCheckoutHandler({
    provider: { client, apiKey: KEY },
    sessionSecrets: ['bench-otel-session-secret-0123456789abcdef'],
    resolveOrder: (ref) => ({ amount: `${1000 + (Number(ref) % 9000)}.00` }),
    rateLimits: false,
    reconcileIntervalSeconds: 0,
    logger: { warn: () => undefined, error: (m, f) => console.error(m, f) },
  });
  let exported = 0;
  const exporter: SpanExporter = {
    export: (spans: ReadableSpan[], done) => {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => undefined,
  };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  const contextManager = new AsyncLocalStorageContextManager();

  const enter = async (state: State) => {
    trace.disable();
    metrics.disable();
    context.disable();
    if (state === 'sdk') {
      context.setGlobalContextManager(contextManager.enable());
      trace.setGlobalTracerProvider(tracerProvider);
      metrics.setGlobalMeterProvider(meterProvider);
    }
    // A fresh load: the tracer paydesk took belongs to the API's previous global.
    setTelemetryLoader(state === 'absent' ? () => Promise.reject(new Error("Cannot find package '@opentelemetry/api'")) : null);
  };

  let n = 0;
  const create = async () => {
    const res = await handler(
      new Request('http://merchant.bench/api/paydesk/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
        body: JSON.stringify({ order_ref: String(n++), method_type: n % 2 ? 'SBP' : 'BankCard' }),
      }),
    );
    if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const measure = async (state: State, count: number) => {
    await enter(state);
    if (state === 'sdk') await tracerProvider.forceFlush();
    gc();
    const t0 = process.cpuUsage();
    for (let i = 0; i < count; i++) await create();
    const used = process.cpuUsage(t0);
    return (used.user + used.system) / 1000 / count;
  };

  try {
    for (const state of ['absent', 'noop', 'sdk'] as const) await measure(state, opts.warmup);
    const per: Record<State, number[]> = { absent: [], noop: [], sdk: [] };
    const noopRatios: number[] = [];
    const sdkRatios: number[] = [];
    const blocks = Math.max(1, Math.round(opts.perState / BLOCK));
    for (let run = 0; run < opts.runs; run++) {
      // Small blocks of each state in turn (the order turning each block), so a load that comes and goes hits all three.
      const total: Record<State, number> = { absent: 0, noop: 0, sdk: 0 };
      for (let b = 0; b < blocks; b++) {
        const order = STATES.map((_, i) => STATES[(i + b + run) % 3]!);
        for (const state of order) total[state] += await measure(state, BLOCK);
      }
      for (const state of STATES) per[state].push(total[state] / blocks);
      noopRatios.push(total.noop / total.absent);
      sdkRatios.push(total.sdk / total.absent);
    }
    await tracerProvider.forceFlush();
    return {
      runs: opts.runs,
      perState: opts.perState,
      absentMs: median(per.absent),
      noopMs: median(per.noop),
      sdkMs: median(per.sdk),
      noopRatio: median(noopRatios),
      sdkRatio: median(sdkRatios),
      spans: exported,
    };
  } finally {
    await enter('absent');
    setTelemetryLoader(null);
    await handler.close();
    await sandbox.close();
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
  }
}

// `tsx bench/otel.ts [runs] [perState]`: this benchmark alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 9);
  const perState = Number(process.argv[3] ?? 300);
  const f = await benchOtel({ runs, perState, warmup: 300 });
  console.log(JSON.stringify(f, null, 2));
}
