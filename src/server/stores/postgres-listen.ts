/**
 * The PostgreSQL store's LISTEN connection: one dedicated connection per store (outside the pool, so
 * it never holds a pool slot and is never handed to a query), listening on one channel, opened on
 * the first subscribe and opened again when it drops (the database restarted, a network cut, an
 * idle-connection killer): every 0.1 s, 0.2 s, 0.4 s … at most 5 s apart, until it listens again.
 * Messages published while it is down do not arrive; paydesk's streams re-read their session on
 * every heartbeat, so a stream catches up without them.
 */

/** The part of a node-postgres `Client` the listener uses. */
export interface ListenClientLike {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  end(): Promise<unknown>;
}

export interface ListenerEvents {
  /** A payload on the channel. */
  payload(payload: string): void;
  /** The connection dropped (`error`) or listens again after a drop (`listening`). */
  state?(state: 'dropped' | 'listening', err?: unknown): void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5000;

export class NotifyListener {
  private client: ListenClientLike | null = null;
  /** The connection being opened (or open): what a subscribe waits for. */
  private opening: Promise<void> | null = null;
  private retryMs = FIRST_RETRY_MS;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private dropped = false;

  constructor(
    private readonly makeClient: () => ListenClientLike,
    private readonly channel: string,
    private readonly events: ListenerEvents,
  ) {}

  /**
   * Resolves once listening; the first failure to connect rejects. While a dropped connection is being
   * opened again it resolves at once: the listener is kept and hears the channel once it is back.
   */
  listen(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('paydesk/server: this PostgreSQL store is closed'));
    if (this.dropped) return Promise.resolve();
    if (!this.opening) {
      this.opening = this.open().catch((err: unknown) => {
        this.opening = null;
        throw err;
      });
    }
    return this.opening;
  }

  /** True while a connection listens. */
  get listening(): boolean {
    return this.client !== null && !this.dropped;
  }

  private async open(): Promise<void> {
    const client = this.makeClient();
    let gone = false;
    const drop = (err?: unknown) => {
      if (gone) return;
      gone = true;
      this.onDrop(client, err);
    };
    client.on('error', (err) => drop(err));
    client.on('end', () => drop());
    client.on('notification', (m) => {
      if (m.channel === this.channel && typeof m.payload === 'string') this.events.payload(m.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (err) {
      gone = true;
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.stopped) {
      gone = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryMs = FIRST_RETRY_MS;
    if (this.dropped) {
      this.dropped = false;
      this.events.state?.('listening');
    }
  }

  private onDrop(client: ListenClientLike, err: unknown): void {
    if (this.stopped || this.client !== client) return;
    this.client = null;
    this.dropped = true;
    this.events.state?.('dropped', err);
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.opening = this.open();
      this.opening.catch(() => {
        if (!this.client) this.scheduleReconnect();
      });
    }, wait);
    this.retry.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await this.opening?.catch(() => undefined);
    if (client) await client.end().catch(() => undefined);
  }
}
