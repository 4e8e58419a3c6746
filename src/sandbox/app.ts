/** The sandbox's Hono app: auth, rate limit, one error handler, and the route modules. */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES } from './constants.js';
import { SandboxHttpError, providerError } from './errors.js';
import { openApiDocument } from './openapi.js';
import { UPLOAD_PATHS, registerApiRoutes } from './routes/api.js';
import { registerControlRoutes } from './routes/controls.js';
import { registerPayRoutes } from './routes/pay.js';
import { isProtocolPath, protocolErrorResponse } from './routes/pay-errors.js';
import { protocolErrorBody } from '../protocol/errors.js';
import type { AppContext, SandboxEnv } from './routes/context.js';

const ORDER_CREATE_PATH = /^\/api\/v1\/order\/?$/;

/**
 * With a state file, a request is answered only once the file holds what it changed (what a real
 * provider's database does): a create or a control answered 2xx survives a `kill -9` a moment
 * later. Requests of one moment share one write; a request that changed nothing waits only for
 * changes still being written, so it never shows what a crash could undo.
 */
function durableAnswer(ctx: AppContext, durable: () => Promise<void>): MiddlewareHandler<SandboxEnv> {
  const { engine, logger } = ctx;
  return async function durableAnswer(c, next) {
    const before = engine.version;
    await next();
    try {
      await durable();
    } catch (err) {
      // A 2xx that changed something (while it ran) becomes 503; other answers stand.
      const refuse = c.res.status < 300 && engine.version !== before;
      logger.error(`saving the sandbox state failed${refuse ? `; ${c.req.method} ${c.req.path} is answered 503` : ''}`, err);
      if (!refuse) return;
      const message = `The sandbox could not save this change to its state file (${err instanceof Error ? err.message : String(err)}); it may be lost when the sandbox restarts`;
      c.res = undefined;
      // The widget protocol's list of codes is closed: a state that could not be saved is an internal error there.
      c.res = isProtocolPath(c.req.path)
        ? c.json(protocolErrorBody('internal_error', message, true), 503)
        : c.json({ success: false, message }, 503);
    }
  };
}

/** Body size limits of the API, the controls and the widget protocol. */
function bodyLimits(): MiddlewareHandler<SandboxEnv> {
  const tooLarge = (max: number) => (c: Context) => {
    const message = `Request body is larger than ${max} bytes`;
    if (isProtocolPath(c.req.path)) return c.json(protocolErrorBody('payload_too_large', message), 413);
    return c.json({ success: false, message }, 413);
  };
  const streamingLimits = new Map(
    [MAX_BODY_BYTES, MAX_UPLOAD_BODY_BYTES].map((max) => [max, bodyLimit({ maxSize: max, onError: tooLarge(max) })] as const),
  );
  /**
   * Body size limit without building a full Request for every call (hono's bodyLimit reads
   * `req.raw.body`, which makes the Node adapter materialise one even for a GET): reads without a
   * body pass, a Content-Length is compared, and only a streamed (chunked) body is counted. Uploads
   * (dispute receipts) may be larger than JSON bodies.
   */
  return async function limitBody(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const max = UPLOAD_PATHS.some((re) => re.test(c.req.path)) ? MAX_UPLOAD_BODY_BYTES : MAX_BODY_BYTES;
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number(length) > max ? tooLarge(max)(c) : next();
    }
    return streamingLimits.get(max)!(c, next);
  };
}

export function createApp(ctx: AppContext): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const { engine, logger } = ctx;

  if (ctx.logRequests) {
    app.use('*', async function requestLog(c, next) {
      const started = performance.now();
      await next();
      const key = c.get('terminal')?.apiKey;
      const ignored = c.get('ignoredFields');
      const url = new URL(c.req.url);
      logger.info(
        `${new Date().toISOString()} ${c.req.method} ${url.pathname}${url.search} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms${key ? ` key=${key}` : ''}${ignored?.length ? ` ignored=${ignored.join(',')}` : ''}`,
      );
    });
  }

  if (ctx.durable) app.use('*', durableAnswer(ctx, ctx.durable));
  const limit = bodyLimits();
  app.use('/api/*', limit);
  app.use('/sandbox/*', limit);
  app.use('/pay/api/*', limit);

  /** X-API-Key → terminal; due expiries of that terminal are applied before anything reads it. */
  const auth: MiddlewareHandler<SandboxEnv> = async function auth(c, next) {
    const key = c.req.header('X-API-Key');
    const terminal = key ? engine.terminals.get(key) : undefined;
    if (!terminal) throw providerError('unauthorized');
    c.set('terminal', terminal);
    engine.processDue(terminal);
    await next();
  };
  const rateLimit: MiddlewareHandler<SandboxEnv> = async function rateLimit(c, next) {
    engine.checkRateLimit(c.get('terminal'), c.req.method === 'POST' && ORDER_CREATE_PATH.test(c.req.path));
    await next();
  };
  app.use('/api/v1/*', auth, rateLimit);
  app.use('/sandbox/*', auth);

  registerApiRoutes(app, ctx);
  registerControlRoutes(app, ctx);
  registerPayRoutes(app, ctx);

  app.get('/openapi.json', (c) => c.json(openApiDocument(new URL(ctx.baseUrl(c.req.url)).origin)));
  app.get('/', (c) =>
    c.json({
      name: 'paydesk sandbox',
      api: '/api/v1',
      openapi: '/openapi.json',
      hosted_form: '/pay?session_id=…',
      controls: '/sandbox/…',
    }),
  );

  app.notFound((c) => {
    if (isProtocolPath(c.req.path)) return c.json(protocolErrorBody('not_found', `No such endpoint: ${c.req.method} ${c.req.path}`), 404);
    return c.json({ success: false, message: `Not found: ${c.req.method} ${c.req.path}` }, 404);
  });

  app.onError((err, c) => {
    const protocol = protocolErrorResponse(c, err);
    if (protocol) return protocol;
    if (err instanceof SandboxHttpError) return c.json(err.body(), err.status as 400, err.headers);
    if (err instanceof HTTPException) {
      return c.json({ success: false, message: err.message || 'Bad request' }, err.status);
    }
    // Never a bare 500 for a bug: log it and answer a clear, distinct error (500 is the document's "no traders").
    logger.error(`unexpected error on ${c.req.method} ${c.req.path}`, err);
    const message = `The sandbox failed to handle this request (${err instanceof Error ? err.message : String(err)}); this is a sandbox bug, see its log`;
    if (isProtocolPath(c.req.path)) return c.json(protocolErrorBody('internal_error', message, true), 503);
    return c.json({ success: false, message }, 503);
  });

  return app;
}
