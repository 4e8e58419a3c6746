/**
 * "I paid — send a receipt", as a reactive controller and its form: photos or screenshots of the
 * transfer, or the bank's PDF receipt (the camera on a phone through `capture`, the files or drag and
 * drop on a desktop), each file's type and size and their number and total checked before anything is
 * sent (the limits of the protocol: `DISPUTE_*`), then `POST {endpoint}/sessions/S/dispute` as
 * `multipart/form-data` with the upload's progress shown (XMLHttpRequest: `fetch` reports no upload
 * progress). The answer's order (its dispute open) goes to the machine, which shows the check. Above
 * the form, as on every screen, the order number with its copy button.
 */
import { css, html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import {
  DISPUTE_COMMENT_FIELD,
  DISPUTE_FILE_TYPES,
  DISPUTE_FILES_FIELD,
  DISPUTE_MAX_COMMENT,
  DISPUTE_MAX_FILE_BYTES,
  DISPUTE_MAX_FILES,
  DISPUTE_MAX_TOTAL_BYTES,
  PROTOCOL_HEADER,
} from '../protocol/index.js';
import { errorOfAnswer, GONE_CODES, parseOrderAnswer, sessionPath, type ErrorInfo } from './api.js';
import { emit } from './events.js';
import type { ViewHost } from './hosts.js';
import { errorText, fill } from './i18n/text.js';
import { plural } from './i18n/plural.js';
import { safeIntl } from './i18n/intl.js';
import { platformOf } from './platform.js';
import { canDispute, copyFor, orderNumber, viewStyles } from './views.js';

export const styles = [viewStyles, css`
.receipt{display:grid;gap:calc(var(--_s)*2)}
.drop{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:var(--_s);padding:calc(var(--_s)*2);border:2px dashed var(--_bc);border-radius:calc(var(--_r) - 4px);text-align:center}
.drop.over{border-color:var(--_a);background:var(--_u)}
.receipt .sr:focus-visible+label{outline:2px solid var(--_a);outline-offset:2px}
.files{display:grid;gap:4px}
.files li{display:flex;align-items:center;gap:var(--_s);padding:4px 4px 4px 12px;border:var(--_b);border-radius:10px}
.files .wrap{flex:1;overflow-wrap:anywhere;min-width:0}
.files button{min-height:36px;min-width:36px;padding:0 10px}
.comment{display:grid;gap:4px;font-size:13px;color:var(--_m)}
textarea{min-height:72px;padding:8px 12px;border:var(--_b);border-radius:calc(var(--_r) - 4px);background:var(--_f);color:var(--_t);font:inherit;font-size:16px;resize:vertical}
.problems p{color:var(--_no)}
progress{width:100%;height:10px;accent-color:var(--_a)}
button:disabled{opacity:.6;cursor:default}
.rstep{display:grid;gap:calc(var(--_s)*2)}
.rstep .order{display:grid;gap:2px}
.rstep .row{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:var(--_s);min-width:0}
.rstep .num{font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere;min-width:0}
.rstep .copy{min-height:36px;padding:6px 10px;font-size:13px;color:var(--_a)}
.rstep .done{color:var(--_ok);border-color:var(--_ok)}
`];

/** File-name endings accepted when the browser gives no type (HEIC often arrives so). */
const EXTENSIONS: Readonly<Record<string, string>> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', heic: 'image/heic', heif: 'image/heic', pdf: 'application/pdf' };
/** The `accept` attribute of the file picker. */
export const ACCEPT = [...DISPUTE_FILE_TYPES, ...Object.keys(EXTENSIONS).map((e) => `.${e}`)].join(',');

export type FileProblem = { kind: 'type' | 'size'; name: string } | { kind: 'count' | 'total' | 'none' };

/** True when the file is one of the receipt types (by its type, or by its name when it has none). */
export function acceptedType(file: Pick<File, 'name' | 'type'>): boolean {
  const type = file.type.toLowerCase();
  if ((DISPUTE_FILE_TYPES as readonly string[]).includes(type)) return true;
  const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return (type === '' || type === 'application/octet-stream' || type === 'image/heif') && ext in EXTENSIONS;
}

/** What is wrong with a set of receipts before sending (none: they may be sent). */
export function fileProblems(files: readonly Pick<File, 'name' | 'type' | 'size'>[]): FileProblem[] {
  const out: FileProblem[] = [];
  if (files.length === 0) return [{ kind: 'none' }];
  if (files.length > DISPUTE_MAX_FILES) out.push({ kind: 'count' });
  for (const f of files) {
    if (!acceptedType(f)) out.push({ kind: 'type', name: f.name });
    else if (f.size > DISPUTE_MAX_FILE_BYTES) out.push({ kind: 'size', name: f.name });
  }
  if (files.reduce((n, f) => n + f.size, 0) > DISPUTE_MAX_TOTAL_BYTES) out.push({ kind: 'total' });
  return out;
}

/**
 * A size for people (`10 MB`, `2.5 kB`), in the shopper's language. Under 1 kB it is `<1 kB` in every
 * language: a fraction of a kilobyte rounded to one decimal was `0 kB` for one small file, `0.1 kB`
 * for another.
 */
export function formatSize(bytes: number, lang: string): string {
  const mb = bytes >= 1024 * 1024;
  const unit = (l: string) => new Intl.NumberFormat(l, { style: 'unit', unit: mb ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 });
  const f = safeIntl(() => unit(lang), () => unit('en'));
  return bytes < 1024 ? `<${f.format(1)}` : f.format(bytes / (mb ? 1024 * 1024 : 1024));
}

export class ReceiptController implements ReactiveController {
  open = false;
  files: File[] = [];
  comment = '';
  problems: FileProblem[] = [];
  /** Upload progress 0–100 while sending, else null. */
  progress: number | null = null;
  /** The code of the last failed upload, or null. */
  error: string | null = null;
  private xhr: XMLHttpRequest | null = null;
  private over = false;

  constructor(private readonly host: ViewHost) {
    host.el.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.close();
  }

  /** The step moved on (paid, a dispute opened, the session gone): the form closes. */
  hostUpdate(): void {
    // Not while its upload is with the server: the dispute it opens can reach the machine (events,
    // polling) before the upload's own answer, which must still be heard (`sent`) — it closes the form.
    if (this.open && !this.xhr && !canDispute(this.host.machine)) this.close();
  }

  /** Opens the form (`paydesk-receipt` `started`, once: a tap on an open form's button opens nothing). */
  show(): void {
    if (this.open) return;
    this.open = true;
    emit(this.host.el, 'paydesk-receipt', { stage: 'started', order: this.host.machine.order });
    this.host.el.requestUpdate();
  }

  /** Closes the form (an upload under way is abandoned; the files are forgotten). */
  close(): void {
    if (!this.open) return;
    this.xhr?.abort();
    this.xhr = null;
    Object.assign(this, { open: false, files: [], comment: '', problems: [], progress: null, error: null });
    this.host.el.requestUpdate();
  }

  /** Adds files (from a picker or a drop); they are checked at once. */
  add(list: FileList | readonly File[] | null): void {
    if (!list || list.length === 0) return;
    this.files = [...this.files, ...Array.from(list)];
    this.check();
  }

  remove(i: number): void {
    this.files = this.files.filter((_, j) => j !== i);
    this.check();
  }

  private check(): void {
    this.problems = this.files.length ? fileProblems(this.files) : [];
    this.error = null;
    this.host.el.requestUpdate();
  }

  /** Sends the receipts, unless something is wrong with them. */
  submit(): void {
    const h = this.host;
    const { session } = h.machine;
    this.problems = fileProblems(this.files);
    this.error = null;
    if (this.problems.length || !session || this.progress !== null) return h.el.requestUpdate();
    const XHR = h.env$.XMLHttpRequest ?? globalThis.XMLHttpRequest;
    if (!XHR) return this.fail({ code: 'network', message: 'XMLHttpRequest is not available', retryable: true });
    const body = new FormData();
    for (const f of this.files) body.append(DISPUTE_FILES_FIELD, f, f.name);
    const comment = this.comment.trim().slice(0, DISPUTE_MAX_COMMENT);
    if (comment) body.append(DISPUTE_COMMENT_FIELD, comment);
    const xhr = (this.xhr = new XHR());
    xhr.open('POST', `${h.base}${sessionPath(session)}/dispute`);
    xhr.setRequestHeader(PROTOCOL_HEADER, '1');
    xhr.timeout = 120_000;
    xhr.upload.onprogress = (e) => {
      if (!e.lengthComputable || this.xhr !== xhr) return;
      this.progress = Math.min(100, Math.floor((e.loaded / Math.max(1, e.total)) * 100));
      h.el.requestUpdate();
    };
    xhr.onload = () => this.answered(xhr);
    xhr.onerror = () => this.xhr === xhr && this.fail({ code: 'network', message: 'network error', retryable: true });
    xhr.ontimeout = () => this.xhr === xhr && this.fail({ code: 'timeout', message: 'the upload took too long', retryable: true });
    this.progress = 0;
    h.el.requestUpdate();
    xhr.send(body);
  }

  private answered(xhr: XMLHttpRequest): void {
    if (this.xhr !== xhr) return;
    const h = this.host;
    let body: unknown = null;
    try {
      body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
    } catch {
      // not JSON: judged by the status below
    }
    if (xhr.status === 200 || xhr.status === 201) {
      try {
        const answer = parseOrderAnswer(body);
        this.xhr = null;
        this.progress = null;
        emit(h.el, 'paydesk-receipt', { stage: 'sent', order: answer.order });
        h.send({ type: 'order', ...answer, mono: h.env$.clock.mono(), wall: h.env$.clock.now() });
        if (this.open) this.close(); // the machine closes it when the order shows the dispute
      } catch {
        this.fail({ code: 'invalid_response', message: 'invalid answer to the dispute upload', retryable: true });
      }
      return;
    }
    this.fail(errorOfAnswer(xhr.status, body));
  }

  private fail(error: ErrorInfo): void {
    const h = this.host;
    this.xhr = null;
    this.progress = null;
    if (GONE_CODES.includes(error.code)) return h.send({ type: 'failed', error }); // the session is gone: its step says so
    if (error.code === 'dispute_open') h.recheck(); // one is open already: the status shows it
    this.error = error.code;
    h.announce(errorText(h.m, error.code));
    h.el.requestUpdate();
  }

  private problemText(p: FileProblem): string {
    const { m, language: lang } = this.host;
    switch (p.kind) {
      case 'type':
        return fill(m.fileType, { name: p.name });
      case 'size':
        return fill(m.fileSize, { name: p.name, size: formatSize(DISPUTE_MAX_FILE_BYTES, lang) });
      case 'count':
        return plural(lang, m.tooMany, DISPUTE_MAX_FILES);
      case 'total':
        return fill(m.tooLarge, { size: formatSize(DISPUTE_MAX_TOTAL_BYTES, lang) });
      case 'none':
        return m.noFile;
    }
  }

  render(): TemplateResult {
    const h = this.host;
    const { m, language: lang, env$, machine: s } = h;
    const phone = platformOf(env$) !== 'desktop';
    const sending = this.progress !== null;
    const pick = (e: Event) => {
      const input = e.target as HTMLInputElement;
      this.add(input.files);
      input.value = '';
    };
    const drag = (over: boolean) => (e: DragEvent) => {
      e.preventDefault();
      if (this.over !== over) {
        this.over = over;
        this.host.el.requestUpdate();
      }
    };
    const messages = [...this.problems.map((p) => this.problemText(p)), ...(this.error ? [errorText(m, this.error)] : [])];
    // Outside the form: its copy button is no submit button.
    const number = orderNumber({ m, copied: h.copied, copy: copyFor(h) }, s.order?.client_order_id ?? s.known?.number);
    return html`<div class="rstep">${number}<form part="receipt" class="receipt" novalidate @submit=${(e: Event) => {
      e.preventDefault();
      this.submit();
    }}><p>${fill(m.receiptText, { size: formatSize(DISPUTE_MAX_FILE_BYTES, lang) })}</p><div class="drop ${this.over ? 'over' : ''}" @dragover=${drag(true)} @dragleave=${drag(false)} @drop=${(e: DragEvent) => {
      drag(false)(e);
      this.add(e.dataTransfer?.files ?? null);
    }}>${
      phone
        ? html`<input id="receipt-camera" class="sr" type="file" accept="image/*" capture="environment" ?disabled=${sending} @change=${pick}><label class="btn" for="receipt-camera">${m.takePhoto}</label>`
        : nothing
    }<input id="receipt-files" class="sr" type="file" multiple accept=${ACCEPT} ?disabled=${sending} @change=${pick}><label class="btn" for="receipt-files">${m.chooseFiles}</label>${
      phone ? nothing : html`<span class="muted">${m.dropHere}</span>`
    }</div>${
      this.files.length
        ? html`<ul class="files">${this.files.map(
            (f, i) =>
              html`<li><span class="wrap">${f.name}</span><span class="muted">${formatSize(f.size, lang)}</span><button type="button" ?disabled=${sending} aria-label=${fill(m.remove, { name: f.name })} @click=${() =>
                this.remove(i)}>×</button></li>`,
          )}</ul>`
        : nothing
    }<label class="comment">${m.commentLabel}<textarea maxlength=${DISPUTE_MAX_COMMENT} ?disabled=${sending} .value=${this.comment} @input=${(e: Event) =>
      (this.comment = (e.target as HTMLTextAreaElement).value)}></textarea></label><div class="problems" role="alert">${messages.map((t) => html`<p>${t}</p>`)}</div>${
      sending ? html`<label class="comment">${fill(m.uploading, { percent: this.progress! })}<progress max="100" .value=${this.progress!}></progress></label>` : nothing
    }<div part="actions"><button class="primary" type="submit" ?disabled=${sending}>${m.send}</button><button type="button" @click=${() => this.close()}>${m.cancel}</button></div></form></div>`;
  }
}

/** The receipt upload's step, once opened (steps.ts `view`). */
export const view = (host: ViewHost): unknown => host.receipt!.render();
