/**
 * Code loaded on demand, for the steps controller (after `@lit/task`'s model, cut to what the element
 * needs): each module has a status (`initial` → `pending` → `complete` | `error`); a load runs once;
 * a failed one stays failed until `retry()`; the host re-renders when one arrives, and its
 * `updateComplete` waits for the loads under way (see `PaydeskCheckout.getUpdateComplete`, steps.ts `wait`).
 */
import type { LazyHost } from './hosts.js';

export type Loaders = Readonly<Record<string, () => Promise<object>>>;
export type Loaded<L extends Loaders> = { [K in keyof L]: Awaited<ReturnType<L[K]>> };
export type LazyStatus = 'initial' | 'pending' | 'complete' | 'error';

export class LazyController<L extends Loaders> {
  private readonly done: Partial<Loaded<L>> = {};
  private readonly status = new Map<keyof L, LazyStatus>();

  constructor(
    private readonly host: LazyHost,
    private readonly loaders: L,
    /** Called with each module as it arrives (before the update it causes). */
    private readonly arrived: <K extends keyof L>(name: K, module: Loaded<L>[K]) => void,
  ) {}

  /** The module, once loaded. */
  get<K extends keyof L>(name: K): Loaded<L>[K] | undefined {
    return this.done[name];
  }

  state(name: keyof L): LazyStatus {
    return this.status.get(name) ?? 'initial';
  }

  /** Starts loading `name` unless it is loaded, under way, or failed (see {@link retry}). */
  load(name: keyof L): void {
    if (this.state(name) !== 'initial') return;
    this.status.set(name, 'pending');
    this.host.wait(
      this.loaders[name]!().then(
        (module) => {
          this.done[name] = module as Loaded<L>[typeof name];
          this.status.set(name, 'complete');
          this.arrived(name, module as Loaded<L>[typeof name]);
        },
        () => void this.status.set(name, 'error'),
      ).then(() => this.host.el.requestUpdate()),
    );
  }

  /** A failed module may be asked for again. */
  retry(name: keyof L): void {
    if (this.state(name) !== 'error') return;
    this.status.delete(name);
    this.host.el.requestUpdate();
  }
}
