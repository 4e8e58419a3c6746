/**
 * The console's CSV exports, `GET {basePath}/api/export/{orders|payouts|disputes|transactions}.csv
 * ?from=ISO&to=ISO[&tz=IANA]` + the list's filters: RFC 4180 text with a byte order mark and a
 * header row, streamed page by page from the provider's list (a page is read only when the one
 * before has been taken by the client, so 100,000 orders never sit in memory; a client that goes
 * away stops the reading). Rows are newest first, as the provider's lists are, created up to the
 * moment the export started. An error on the first page is an error answer; one later cuts the
 * download (a file that looks complete but is not would be worse).
 */
import { BOM, csvRow } from './csv.js';
import { errorResponse, fieldErrorResponse, providerErrorResponse } from './answers.js';
import { ConsoleHttpError } from './errors.js';
import { EXPORT_KINDS, exportSpec, type ExportKind, type ExportSpec, type RowContext } from './export-kinds.js';
import { FieldError, onlyKnown, readPeriod, single, type Period } from './period.js';
import type { ProviderClient } from '../provider/types.js';
import { walkPages } from './walk.js';
import { localDate } from './zone.js';

export { EXPORT_KINDS, type ExportKind } from './export-kinds.js';

/** Records asked a page: the provider's most. Each chunk of the stream is one page's rows. */
const PAGE_SIZE = 100;

export interface ExportOptions {
  /** Now, epoch ms (tests). */
  now?: () => number;
  /** Records asked a page (default 100, the provider's most). */
  pageSize?: number;
}

function isKind(kind: string): kind is ExportKind {
  return (EXPORT_KINDS as readonly string[]).includes(kind);
}

/** The query of an export, checked: the period and the filters as the provider takes them. */
export function readExportQuery(spec: ExportSpec<unknown>, params: URLSearchParams): { period: Period; filters: Record<string, string> } {
  onlyKnown(params, ['from', 'to', 'tz', ...Object.keys(spec.filters)]);
  const period = readPeriod(params, { tzRequired: false });
  const filters: Record<string, string> = {};
  for (const [name, check] of Object.entries(spec.filters)) {
    const value = single(params, name);
    if (value !== undefined) filters[name] = check(value);
  }
  return { period, filters };
}

/** `orders_2026-11-01_2026-11-30.csv`: the kind and the period's first and last dates (in `tz`, else UTC). */
export function exportFileName(kind: ExportKind, period: Period): string {
  const tz = period.tz ?? 'UTC';
  return `${kind}_${localDate(tz, period.fromMs)}_${localDate(tz, period.toMs)}.csv`;
}

/**
 * The export `kind` for the query `params` as a `text/csv` answer (its body a stream), or the error
 * answer: 404 for an unknown kind, 400 naming a bad field, 429/502/504 when the provider fails the
 * first page. `signal` (the request's) stops the reading when the client goes away.
 */
export async function exportCsv(client: ProviderClient, kind: string, params: URLSearchParams, signal?: AbortSignal, options: ExportOptions = {}): Promise<Response> {
  if (!isKind(kind)) {
    return errorResponse(new ConsoleHttpError(404, 'not_found', `there is no export ${kind.slice(0, 40)}; the exports are ${EXPORT_KINDS.join(', ')}`));
  }
  const spec = exportSpec(kind);
  let query: ReturnType<typeof readExportQuery>;
  try {
    query = readExportQuery(spec, params);
  } catch (err) {
    if (err instanceof FieldError) return fieldErrorResponse(err);
    throw err;
  }
  const { period, filters } = query;
  const ctx: RowContext = { tz: period.tz };
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });

  const toMs = Math.min(period.toMs, (options.now ?? Date.now)());
  const pages = walkPages({
    fromMs: period.fromMs,
    toMs,
    read: (request) => spec.read(client, filters, request, stop.signal),
    createdMs: (row) => spec.createdMs(row),
    id: (row) => spec.id(row),
    size: options.pageSize ?? PAGE_SIZE,
    signal: stop.signal,
  });
  const finish = () => {
    signal?.removeEventListener('abort', onAbort);
    void pages.return(undefined).catch(() => undefined);
  };
  /** The rows of the next provider page as CSV text; `done` once the list has no more. */
  const nextRows = async (): Promise<{ text: string; done: boolean }> => {
    const r = await pages.next();
    if (r.done) return { text: '', done: true };
    let text = '';
    for (const row of r.value) text += csvRow(spec.columns.map(([, cell]) => cell(row, ctx)));
    return { text, done: false };
  };

  let first: { text: string; done: boolean };
  try {
    first = toMs < period.fromMs ? { text: '', done: true } : await nextRows();
  } catch (err) {
    finish();
    const answer = providerErrorResponse(err);
    if (answer) return answer;
    throw err;
  }
  const encoder = new TextEncoder();
  let done = first.done;
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        c.enqueue(encoder.encode(BOM + csvRow(spec.columns.map(([name]) => name)) + first.text));
        if (done) {
          finish();
          c.close();
        }
      },
      // Called only when the client has taken what was queued: one provider page per call.
      async pull(c) {
        try {
          const next = await nextRows();
          done = next.done;
          if (next.text) c.enqueue(encoder.encode(next.text));
          if (done) {
            finish();
            c.close();
          }
        } catch (err) {
          finish();
          c.error(err);
        }
      },
      cancel(reason) {
        stop.abort(reason);
        finish();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${exportFileName(kind, period)}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
