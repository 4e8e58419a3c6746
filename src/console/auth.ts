/**
 * Who may use the console, one of two ways:
 *   - `password`: the console's own login — a password (compared in constant time) gives an HttpOnly,
 *     SameSite=Strict session cookie scoped to the console's path; failed logins are limited per
 *     client address.
 *       POST /login {"password"} → 204 + cookie;  POST /logout → 204, cookie cleared
 *   - `authorize(request)`: the merchant's own sign-in decides, on every request (pages and API);
 *     /login and /logout answer 404.
 * Either way every request that changes something must come from the console's own page (see
 * src/console/api.ts), and `GET /me` → 200 {"authenticated": true, "auth": "password" | "authorize"} | 401.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { readJson } from './checks.js';
import { ConsoleHttpError, errorBody, invalid } from './errors.js';

export const CONSOLE_COOKIE = 'paydesk_console';

/** The merchant's own check of a request (their session cookie, header, network…): true lets it in. */
export type ConsoleAuthorize = (request: Request) => boolean | Promise<boolean>;

export interface AuthOptions {
  /** The console's own login's password (at least 8 characters); or `authorize`, not both. */
  password?: string | undefined;
  /** The merchant's own check of every request; replaces the password login. */
  authorize?: ConsoleAuthorize | undefined;
  /** The console's path (the login cookie is scoped to it), e.g. `/console`. */
  basePath: string;
  /** Lifetime of a login (default 8 h). */
  sessionTtlSeconds?: number | undefined;
  /** Failed logins allowed per client address per minute (default 10). */
  maxFailedLoginsPerMinute?: number | undefined;
  /** Client address for the login limit (default: a single bucket). */
  clientAddress?: (c: Context) => string;
  now?: () => number;
}

export interface ConsoleAuth {
  /** The login (an id given at login, never the cookie; `merchant` with `authorize`) of the request, or null. */
  loginOf(c: Context): string | null;
  /** Whether a request may see the console (its pages): with `authorize`, its answer; with a password, always (the page shows the login). */
  mayOpen(request: Request): Promise<boolean>;
}

/** `authorize` asked once per request; a throw or anything but `true` is a no. */
async function allowed(authorize: ConsoleAuthorize, request: Request): Promise<boolean> {
  try {
    return (await authorize(request)) === true;
  } catch {
    return false;
  }
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
  const { authorize } = options;
  if ((options.password === undefined) === (authorize === undefined)) {
    throw new Error('createConsole: give exactly one of password (the console\'s own login) and authorize (your own sign-in)');
  }
  if (authorize !== undefined) {
    if (typeof authorize !== 'function') throw new TypeError('createConsole: authorize must be a function (request) => boolean | Promise<boolean>');
    return registerAuthorize(app, authorize);
  }
  if (typeof options.password !== 'string' || options.password.length < 8) {
    throw new Error('createConsole: password must be at least 8 characters');
  }
  const cookiePath = options.basePath || '/';
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

  sameOriginOnly(app);

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
      path: cookiePath,
      maxAge: Math.floor(ttlMs / 1000),
    });
    return c.body(null, 204);
  });

  app.post('/logout', (c) => {
    const token = getCookie(c, CONSOLE_COOKIE);
    if (token) sessions.delete(tokenKey(token));
    deleteCookie(c, CONSOLE_COOKIE, { path: cookiePath, httpOnly: true, sameSite: 'Strict', secure: secure(c) });
    return c.body(null, 204);
  });

  // Everything below needs a login.
  app.use('*', async (c, next) => {
    if (loginOf(c) === null) return c.json(errorBody('unauthorized', 'Log in to the console first.'), 401);
    await next();
  });

  app.get('/me', (c) => c.json({ authenticated: true, auth: 'password' }));
  return { loginOf, mayOpen: async () => true };
}

/** Every request that changes something comes from the console's own page (see the file comment). */
function sameOriginOnly(app: Hono): void {
  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    if (!SAFE_METHODS.has(c.req.method)) {
      const refusal = crossSiteRefusal(c);
      if (refusal) return c.json(refusal.body(), 403);
    }
    await next();
  });
}

/** The merchant's `authorize` asked on every API request; no login routes of the console's own. */
function registerAuthorize(app: Hono, authorize: ConsoleAuthorize): ConsoleAuth {
  sameOriginOnly(app);
  const noLogin = (c: Context) => c.json(errorBody('not_found', 'This console uses your own sign-in: there is no console login.'), 404);
  app.post('/login', noLogin);
  app.post('/logout', noLogin);
  const passed = new WeakSet<Request>();
  app.use('*', async (c, next) => {
    if (!(await allowed(authorize, c.req.raw))) return c.json(errorBody('unauthorized', 'Not signed in, or not allowed to use the console.'), 401);
    passed.add(c.req.raw);
    await next();
  });
  app.get('/me', (c) => c.json({ authenticated: true, auth: 'authorize' }));
  return { loginOf: (c) => (passed.has(c.req.raw) ? 'merchant' : null), mayOpen: (request) => allowed(authorize, request) };
}
