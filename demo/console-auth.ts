/**
 * The console's demo login: a password (compared in constant time) gives an HttpOnly, SameSite=Strict
 * session cookie scoped to the console; failed logins are limited per client address; every
 * request that changes something must come from the console's own page (see demo/console.ts).
 *
 *   POST /login {"password"} → 204 + cookie;  POST /logout → 204, cookie cleared;  GET /me → 200 | 401
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { CONSOLE_PATH } from './console-contract.js';
import { readJson } from './console-checks.js';
import { ConsoleHttpError, errorBody, invalid } from './console-errors.js';

export const CONSOLE_COOKIE = 'paydesk_console';

export interface AuthOptions {
  /** The demo login's password (at least 8 characters). */
  password: string;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number;
  /** Client address for the login limit (default: a single bucket). */
  clientAddress?: (c: Context) => string;
  now?: () => number;
}

export interface ConsoleAuth {
  /** The login (an id given at login, never the cookie) of the request, or null. */
  loginOf(c: Context): string | null;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Null when the request may change something, else the refusal. */
export function crossSiteRefusal(c: Context): ConsoleHttpError | null {
  if (c.req.header('x-paydesk') !== '1') {
    return new ConsoleHttpError(403, 'missing_protocol_header', 'POST requests need the header X-Paydesk: 1');
  }
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return new ConsoleHttpError(403, 'cross_site_request', `refused: the request came from another site or origin (Sec-Fetch-Site: ${site})`);
  }
  const origin = c.req.header('origin');
  if (origin !== undefined) {
    const host = (c.req.header('host') ?? new URL(c.req.url).host).toLowerCase();
    let from: string | null = null;
    try {
      from = origin === 'null' ? null : new URL(origin).host.toLowerCase();
    } catch {
      from = null;
    }
    if (from !== host) return new ConsoleHttpError(403, 'cross_site_request', `refused: the request came from ${origin}, not from this console`);
  }
  return null;
}


/**
 * Adds the same-origin check of POSTs, /login, /logout, then the login check of everything after
 * (and /me) to `app`.
 */
export function registerAuth(app: Hono, options: AuthOptions): ConsoleAuth {
  if (typeof options.password !== 'string' || options.password.length < 8) {
    throw new Error('createConsoleApi: password must be at least 8 characters');
  }
  const now = options.now ?? Date.now;
  const ttlMs = (options.sessionTtlSeconds ?? 8 * 3600) * 1000;
  const maxFailed = options.maxFailedLoginsPerMinute ?? 10;
  const addressOf = options.clientAddress ?? (() => 'any');
  // Both sides hashed to 32 bytes first, so timingSafeEqual compares equal lengths and the length does not leak.
  const passwordDigest = digest(options.password);
  /** sha256(token) → the login; the token itself is only in the browser's cookie. */
  const sessions = new Map<string, { expires: number; login: string }>();
  const failed = new Map<string, number[]>();
  const tokenKey = (token: string) => digest(token).toString('base64url');
  const secure = (c: Context) => new URL(c.req.url).protocol === 'https:';

  function loginOf(c: Context): string | null {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (!token || token.length > 128) return null;
    const key = tokenKey(token);
    const session = sessions.get(key);
    if (session === undefined) return null;
    if (session.expires <= now()) {
      sessions.delete(key);
      return null;
    }
    return session.login;
  }

  // Every request that changes something comes from the console's own page (see the file comment).
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    if (!SAFE_METHODS.has(c.req.method)) {
      const refusal = crossSiteRefusal(c);
      if (refusal) return c.json(refusal.body(), 403);
    }
    await next();
  });

  app.post('/login', async (c) => {
    const addr = addressOf(c);
    const t = now();
    const recent = (failed.get(addr) ?? []).filter((at) => at > t - 60_000);
    if (recent.length >= maxFailed) {
      c.header('Retry-After', '60');
      return c.json(errorBody('rate_limited', 'Too many wrong passwords. Wait a minute and try again.', true), 429);
    }
    const body = await readJson(c, '{"password": "…"}');
    const password = (body as { password?: unknown } | null)?.password;
    if (typeof password !== 'string' || password.length === 0 || password.length > 256) {
      throw invalid('password', 'required, at most 256 characters');
    }
    if (!timingSafeEqual(digest(password), passwordDigest)) {
      recent.push(t);
      failed.set(addr, recent);
      return c.json(errorBody('unauthorized', 'Wrong password.'), 401);
    }
    failed.delete(addr);
    for (const [k, s] of sessions) if (s.expires <= t) sessions.delete(k);
    const token = randomBytes(32).toString('base64url');
    sessions.set(tokenKey(token), { expires: t + ttlMs, login: randomBytes(6).toString('hex') });
    setCookie(c, CONSOLE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secure(c),
      path: CONSOLE_PATH,
      maxAge: Math.floor(ttlMs / 1000),
    });
    return c.body(null, 204);
  });

  app.post('/logout', (c) => {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (token) sessions.delete(tokenKey(token));
    deleteCookie(c, CONSOLE_COOKIE, { path: CONSOLE_PATH, httpOnly: true, sameSite: 'Strict', secure: secure(c) });
    return c.body(null, 204);
  });

  // Everything below needs a login.
  app.use('*', async (c, next) => {
    if (loginOf(c) === null) return c.json(errorBody('unauthorized', 'Log in to the console first.'), 401);
    await next();
  });

  app.get('/me', (c) => c.json({ authenticated: true }));
  return { loginOf };
}
