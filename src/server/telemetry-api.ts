/**
 * The parts of `@opentelemetry/api` that telemetry.ts uses (1.3+), as small structural types: no OTel
 * type reaches paydesk's `.d.ts`, and nothing here needs the package installed.
 */

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue>;

export interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
}
export interface ApiSpan {
  spanContext(): SpanContext;
  /** API 1.9+; older APIs link at the start only. */
  addLink?(link: { context: SpanContext }): unknown;
  setAttribute(key: string, value: AttributeValue): unknown;
  recordException(exception: { name?: string; message?: string; code?: string | number; stack?: string } | string): void;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  end(): void;
}
export interface ApiTracer {
  startSpan(name: string, options?: { attributes?: Attributes; links?: Array<{ context: SpanContext }> }, context?: unknown): ApiSpan;
}
export interface ApiInstrument {
  add?(value: number, attributes?: Attributes): void;
  record?(value: number, attributes?: Attributes): void;
}
export interface ApiMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): ApiInstrument;
  createHistogram(name: string, options?: { description?: string; unit?: string }): ApiInstrument;
}
export interface Api {
  trace: {
    getTracer(name: string, version?: string): ApiTracer;
    setSpan(context: unknown, span: ApiSpan): unknown;
    getSpan(context: unknown): ApiSpan | undefined;
    setSpanContext(context: unknown, spanContext: SpanContext): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  metrics: { getMeterProvider(): { getMeter(name: string, version?: string): ApiMeter } };
}
