import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { toErrorAnswer } from './errors.ts';
import { bearerToken, clientIp, parseBody } from './parse.ts';
import { checkRole, match, needsSignIn, type Answer, type Route } from './router.ts';
import { apiRoutes } from './routes.ts';
import { serveStatic } from './static.ts';

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};

export interface ServerOptions {
  staticDir?: string;
  trustProxy?: boolean;
  log?: (line: string) => void;
}

export function createMedoraServer(app: App, options: ServerOptions = {}): Server {
  const routes = apiRoutes(app);
  const staticDir = options.staticDir ?? DEFAULT_STATIC_DIR;
  const log = options.log ?? ((line: string) => console.log(line));
  // Session lookups are remembered once the database's notices are heard; until then each is asked for.
  void app.sessions.watch(app.db);

  return createServer(async (req, res) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    try {
      if (path === '/api' || path.startsWith('/api/')) {
        await handleApi(app, routes, req, res, { requestId, trustProxy: options.trustProxy ?? false });
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        await serveStatic(staticDir, path, req, res, req.method === 'HEAD');
      } else {
        send(res, { status: 405, body: { message: 'Method not allowed', code: 'method_not_allowed' }, headers: { allow: 'GET, HEAD' } });
      }
    } catch (error) {
      const answer = toErrorAnswer(error);
      if (answer.unexpected) log(`error rid=${requestId} ${req.method} ${path}: ${(answer.unexpected as Error)?.stack ?? answer.unexpected}`);
      if (!res.headersSent) send(res, answer);
      else res.destroy();
    } finally {
      log(`${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms rid=${requestId}`);
    }
  });
}

async function handleApi(
  app: App,
  routes: Route[],
  req: IncomingMessage,
  res: ServerResponse,
  opts: { requestId: string; trustProxy: boolean },
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  const { route, params } = match(routes, method, url.pathname);
  const token = bearerToken(req.headers.authorization);
  // Public routes are typed to take no actor (PublicHandler), so none is made up for them.
  const actor = needsSignIn(route.access) ? await app.auth.authenticate(token, opts.requestId) : undefined;
  if (actor) checkRole(route.access, actor);
  const reads = method === 'GET' || method === 'HEAD';
  const body = reads || method === 'DELETE' ? {} : await parseBody(req);
  let answer: Answer;
  try {
    answer = await route.handler({
      params,
      query: Object.fromEntries(url.searchParams),
      body,
      actor: actor as Actor,
      token,
      headers: req.headers,
      ip: clientIp(req, opts.trustProxy),
      requestId: opts.requestId,
    });
  } finally {
    // The database's notice of a change reaches this server a moment after the commit; forgetting now means
    // the next request here already sees it (a deactivated doctor's, say).
    if (!reads && actor) app.sessions.forgetAfterWriteBy(actor);
  }
  send(res, answer, method === 'HEAD');
}

function send(res: ServerResponse, answer: Answer, headOnly = false): void {
  const status = answer.status ?? (answer.body === undefined ? 204 : 200);
  const headers: Record<string, string | number> = { 'cache-control': 'no-store', ...answer.headers };
  let payload: Buffer | undefined;
  if (answer.body instanceof Uint8Array) {
    payload = Buffer.from(answer.body);
  } else if (answer.body !== undefined && status !== 204) {
    payload = Buffer.from(JSON.stringify(answer.body));
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (payload) headers['content-length'] = payload.length;
  res.writeHead(status, headers);
  res.end(headOnly ? undefined : payload);
}

/** Listens, and on SIGINT/SIGTERM stops accepting, lets requests in flight finish, then closes the database. */
export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}

export function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
