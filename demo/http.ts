/** Small HTTP pieces the demo's servers share: the error body, listening and closing on loopback. */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Hono } from 'hono';

/** A port is taken: the message names the port and the variable that changes it. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: 'PORT' | 'SANDBOX_PORT',
  ) {
    super(`port ${port} is already in use; set ${variable} to a free port (e.g. ${variable}=${port + 1})`);
    this.name = 'PortInUseError';
  }
}

/** The demo's error body, `{"error": {code, message, retryable}}`. */
export function errorJson(c: Context, status: number, code: string, message: string, retryable = false) {
  return c.json({ error: { code, message, retryable } }, status as 400);
}

export function listen(app: Hono, port: number, host: string, variable: 'PORT' | 'SANDBOX_PORT'): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, variable) : err);
    });
  });
}

export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}

/** `http://host:port` of a listening server (IPv6 in brackets). */
export function urlOf(host: string, server: ServerType): string {
  const port = (server.address() as AddressInfo).port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function checkPort(value: number | undefined, fallback: number, name: string): number {
  const port = value ?? fallback;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`${name} must be an integer from 0 to 65535, got ${String(value)}`);
  return port;
}

/** The client's address, or undefined for in-process requests (no socket). */
export function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}
