/** The sandbox's HTTP servers: `listen()` on loopback only, each closable, all closed on `close()`. */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { ListenOptions, ListeningSandbox } from './options.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export interface Listeners {
  listen(options?: ListenOptions): Promise<ListeningSandbox>;
  /** Closes every server (open connections too). */
  closeAll(): Promise<void>;
  /** The URL of the first server still listening, or null. */
  readonly url: string | null;
}

export function createListeners(fetch: (request: Request) => Response | Promise<Response>): Listeners {
  let listeningUrl: string | null = null;
  const servers = new Set<ServerType>();
  const closeServer = (server: ServerType) =>
    new Promise<void>((resolve) => {
      servers.delete(server);
      server.close(() => resolve());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  return {
    async listen(listenOptions: ListenOptions = {}) {
      const host = listenOptions.host ?? '127.0.0.1';
      if (!LOOPBACK.has(host)) throw new RangeError('the sandbox listens on loopback only (127.0.0.1, ::1 or localhost)');
      const server = await new Promise<ServerType>((resolve, reject) => {
        const s = serve({ fetch, port: listenOptions.port ?? 0, hostname: host }, () => resolve(s));
        s.once('error', reject);
      });
      servers.add(server);
      const port = (server.address() as AddressInfo).port;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      listeningUrl ??= url;
      return {
        port,
        url,
        close: async () => {
          if (listeningUrl === url) listeningUrl = null;
          await closeServer(server);
        },
      };
    },
    async closeAll() {
      await Promise.all([...servers].map(closeServer));
      listeningUrl = null;
    },
    get url() {
      return listeningUrl;
    },
  };
}
