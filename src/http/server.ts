import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { write, writeSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { asRecord, refuseUnstorableText } from '../domain/shared/validate.ts';
import { toErrorAnswer } from './errors.ts';
import { bearerToken, clientIp, parseBody } from './parse.ts';
import { isHttps, refuseCrossSite, sessionCookie } from './session-cookie.ts';
import { checkRole, match, needsSignIn, type Answer, type Route } from './router.ts';
import { apiRoutes } from './routes.ts';
import { serveStatic } from './static.ts';
import { CALENDAR_FEED_PREFIX } from '../links.ts';
import { ListenError } from './listen-error.ts';

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
// An API answer passes all its headers to writeHead at once, as [name, value, name, value …]: each setHeader
// call validates its header again, and headers set before writeHead send it down node's slow path.
const SECURITY_HEADER_LIST: string[] = Object.entries(SECURITY_HEADERS).flat();

/** The access log's lines wait at most this long before they are written out together. */
export const ACCESS_LOG_FLUSH_MS = 100;
const ACCESS_LOG_MAX_CHARS = 64 * 1024;

/**
 * Lines written in batches: at most `flushMs` after the first waiting one, at once when a batch grows past
 * `maxChars`, and whenever `flush()` is called. A write per request — console.log's synchronous write to a file
 * or pipe — took a tenth of a cheap read's CPU time, and a write that waits on a busy disk stalls every request.
 */
export function batchedLines(write: (chunk: string) => void, flushMs = ACCESS_LOG_FLUSH_MS, maxChars = ACCESS_LOG_MAX_CHARS) {
  let waiting: string[] = [];
  let chars = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (waiting.length === 0) return;
    const chunk = `${waiting.join('\n')}\n`;
    waiting = [];
    chars = 0;
    write(chunk);
  };
  const line = (text: string) => {
    waiting.push(text);
    chars += text.length + 1;
    if (chars >= maxChars) flush();
    // Unreferenced, so a pending flush never keeps the process up; the exit hook below writes what is left.
    else timer ??= setTimeout(flush, flushMs).unref();
  };
  return { line, flush };
}

/**
 * Chunks written to a file descriptor in order, one write at a time on libuv's thread pool: a write to a file or
 * pipe can block for a long while (a disk busy with the database's writes, a slow reader), and the event loop
 * must not wait with it. `drainSync` writes out what has not been handed over yet, for the process's exit.
 */
export function asyncFdWriter(fd: number, fs: Pick<typeof import('node:fs'), 'write' | 'writeSync'> = { write, writeSync }) {
  const queue: Buffer[] = [];
  let writing = false;
  const next = (): void => {
    const chunk = queue[0];
    if (!chunk) {
      writing = false;
      return;
    }
    writing = true;
    fs.write(fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && (error as NodeJS.ErrnoException).code === 'EAGAIN') {
        setTimeout(next, 10).unref();
        return;
      }
      // Past an error (the log's reader went away) the chunk is dropped: a request never fails for its log line.
      if (error || written >= chunk.length) queue.shift();
      else queue[0] = chunk.subarray(written);
      next();
    });
  };
  return {
    write(chunk: string) {
      queue.push(Buffer.from(chunk));
      if (!writing) next();
    },
    drainSync() {
      // The chunk being written belongs to the thread pool; what waits behind it is written here.
      for (const chunk of queue.splice(writing ? 1 : 0)) {
        try {
          fs.writeSync(fd, chunk);
        } catch {
          return;
        }
      }
    },
  };
}

let stdoutLines: ReturnType<typeof batchedLines> | undefined;
/**
 * One batch for every server of the process, on stdout: written asynchronously to a file or pipe, through
 * process.stdout to a terminal; what is left is written out when the process exits.
 */
function stdoutLog(): ReturnType<typeof batchedLines> {
  if (!stdoutLines) {
    const fd = process.stdout.isTTY ? undefined : asyncFdWriter(1);
    const lines = batchedLines(fd ? fd.write : (chunk) => process.stdout.write(chunk));
    process.once('exit', () => {
      lines.flush();
      fd?.drainSync();
    });
    stdoutLines = lines;
  }
  return stdoutLines;
}

export interface ServerOptions {
  staticDir?: string;
  /** How many proxies of our own stand in front (TRUST_PROXY); 0 believes no X-Forwarded-For. */
  trustProxy?: number;
  /** PUBLIC_URL, when set: the origin of every link the API hands out. */
  publicUrl?: string;
  /** Where the access log and unexpected errors go, a line at a time; by default stdout, in batches. */
  log?: (line: string) => void;
}

// A year, as browsers' preload lists ask; subdomains are left to their own servers.
const HSTS = 'max-age=31536000';

/**
 * A request's path as the log writes it: a calendar feed's address is its only key, so its token is masked, and so
 * is anything else as long as a token (32 or more base64url characters), wherever a mistyped address put it.
 */
const loggedPath = (path: string) =>
  path.startsWith(CALENDAR_FEED_PREFIX) ? `${CALENDAR_FEED_PREFIX}[token]` : path.replace(/[A-Za-z0-9_-]{32,}/g, '[token]');

/** What a shutdown needs of a server: the requests still being handled, and the database to interrupt. */
const lifecycles = new WeakMap<Server, { handling: Set<Promise<void>>; db: App['db'] }>();

export function createMedoraServer(app: App, options: ServerOptions = {}): Server {
  const routes = apiRoutes(app, { publicUrl: options.publicUrl });
  const staticDir = options.staticDir ?? DEFAULT_STATIC_DIR;
  const batch = options.log ? undefined : stdoutLog();
  const log = options.log ?? batch!.line;
  // An unexpected error is written out at once, behind the lines before it.
  const logNow = (line: string) => {
    log(line);
    batch?.flush();
  };
  // Session lookups are remembered once the database's notices are heard; until then each is asked for.
  void app.sessions.watch(app.db);
  const handling = new Set<Promise<void>>();

  const server = createServer((req, res) => {
    const handled = handle(req, res);
    handling.add(handled);
    void handled.finally(() => handling.delete(handled));
  });
  // Idle connections outlive the idle timeout of a proxy in front (60 s is common), so it is always the client that
  // closes one, never the server while a request is already on its way over it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  lifecycles.set(server, { handling, db: app.db });
  return server;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = randomUUID();
    const { path, search } = splitTarget(req.url);
    // Only when HTTPS is known (our socket, or our own proxy says so): over plain HTTP the header means nothing.
    if (isHttps(req, options.trustProxy ?? 0)) res.setHeader('strict-transport-security', HSTS);
    try {
      if (path === '/api' || path.startsWith('/api/')) {
        const api = () => handleApi(app, routes, req, res, { path, search, requestId, trustProxy: options.trustProxy ?? 0 });
        await (req.method === 'GET' || req.method === 'HEAD' ? app.db.reading(api) : api());
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        // The UI's files are written by serveStatic, which sets only its own headers.
        res.setHeader('x-request-id', requestId);
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
        await serveStatic(staticDir, path, req, res, req.method === 'HEAD');
      } else {
        send(res, requestId, { status: 405, body: { message: 'Method not allowed', code: 'method_not_allowed' }, headers: { allow: 'GET, HEAD' } });
      }
    } catch (error) {
      const answer = toErrorAnswer(error);
      if (answer.unexpected) logNow(`error rid=${requestId} ${req.method} ${loggedPath(path)}: ${(answer.unexpected as Error)?.stack ?? answer.unexpected}`);
      // Refused before its body was read (too large, not signed in): the rest of the body would stand in the way of
      // the next request on this connection, so the connection ends with the answer.
      if (!res.headersSent) send(res, requestId, req.complete ? answer : { ...answer, headers: { ...answer.headers, connection: 'close' } });
      else res.destroy();
    } finally {
      log(`${req.method} ${loggedPath(path)} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms rid=${requestId}`);
    }
  }
}

/**
 * The request target's path and query, taken apart by hand: `new URL` would read `//host/…` as another host.
 * The path stays percent-encoded; the router decodes each parameter.
 */
function splitTarget(target = '/'): { path: string; search: string } {
  const at = target.indexOf('?');
  return at < 0 ? { path: target, search: '' } : { path: target.slice(0, at), search: target.slice(at + 1) };
}

async function handleApi(
  app: App,
  routes: Route[],
  req: IncomingMessage,
  res: ServerResponse,
  opts: { path: string; search: string; requestId: string; trustProxy: number },
): Promise<void> {
  const method = req.method ?? 'GET';
  const { route, params } = match(routes, method, opts.path);
  const https = isHttps(req, opts.trustProxy);
  const bearer = bearerToken(req.headers.authorization);
  const cookie = bearer ? undefined : sessionCookie(req, https);
  // A write through the browser's cookie, or a sign-in that sets it, must come from Medora's own pages.
  if (cookie || route.setsCookie) refuseCrossSite(req, https);
  const token = bearer ?? cookie;
  // Public routes are typed to take no actor (PublicHandler), so none is made up for them.
  const actor = needsSignIn(route.access) ? await app.auth.authenticate(token, opts.requestId) : undefined;
  if (actor) {
    try {
      checkRole(route.access, actor);
    } catch (refused) {
      await app.audit.recordWrongRole(actor, `${method} ${route.path}`);
      throw refused;
    }
  }
  const reads = method === 'GET' || method === 'HEAD';
  const body = reads || method === 'DELETE' ? {} : await parseBody(req);
  const query: Record<string, string> = opts.search ? Object.fromEntries(new URLSearchParams(opts.search)) : {};
  refuseUnstorableText(query);
  refuseUnstorableText(asRecord(body));
  let answer: Answer;
  try {
    answer = await route.handler({
      params,
      query,
      body,
      actor: actor as Actor,
      token,
      session: token === undefined ? undefined : cookie ? 'cookie' : 'bearer',
      https,
      headers: req.headers,
      ip: clientIp(req, opts.trustProxy),
      requestId: opts.requestId,
    });
  } finally {
    // The database's notice of a change reaches this server a moment after the commit; forgetting now means
    // the next request here already sees it (a deactivated doctor's, say).
    if (!reads && actor) app.sessions.forgetAfterWriteBy(actor);
  }
  send(res, opts.requestId, answer, method === 'HEAD');
}

/** Writes an answer with the request id, the security headers and no-store unless the answer says otherwise. */
function send(res: ServerResponse, requestId: string, answer: Answer, headOnly = false): void {
  const status = answer.status ?? (answer.body === undefined ? 204 : 200);
  const json = !(answer.body instanceof Uint8Array) && answer.body !== undefined && status !== 204;
  const headers: (string | number)[] = [...SECURITY_HEADER_LIST, 'x-request-id', requestId];
  if (!answer.headers?.['cache-control']) headers.push('cache-control', 'no-store');
  for (const [name, value] of Object.entries(answer.headers ?? {})) if (!(json && name === 'content-type')) headers.push(name, value);
  let payload: Buffer | undefined;
  if (answer.body instanceof Uint8Array) {
    payload = Buffer.from(answer.body);
  } else if (json) {
    payload = Buffer.from(JSON.stringify(answer.body));
    headers.push('content-type', 'application/json; charset=utf-8');
  }
  if (payload) headers.push('content-length', payload.length);
  res.writeHead(status, headers);
  res.end(headOnly ? undefined : payload);
}

/** Listens on `host`:`port`; when it cannot, rejects with a ListenError that says where and why. */
export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error)));
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}

/**
 * Stops accepting and lets the requests in flight finish for `graceMs`. Past that, the database is interrupted
 * first — their statements cancelled, nothing of theirs commits — and only then are their sockets closed, so no
 * write commits after its client saw the connection reset. Resolves within grace + 1.2 s, whatever the database
 * does.
 */
export async function closeGracefully(server: Server, graceMs = 10_000): Promise<void> {
  const lifecycle = lifecycles.get(server);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive connection becomes idle when its last request is answered; it is closed then.
  const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
  server.closeIdleConnections();
  const handling = lifecycle?.handling ?? new Set();
  // A request may still arrive on a keep-alive connection until it is closed, so wait until none is left.
  const drained = async () => {
    while (handling.size > 0) await Promise.allSettled([...handling]);
  };
  try {
    if (!(await within(graceMs, drained()))) {
      await within(500, lifecycle?.db.interrupt() ?? Promise.resolve());
      server.closeAllConnections();
      await within(500, drained());
    }
    await within(200, closed);
  } finally {
    clearInterval(closeIdle);
  }
}

/** Whether `work` settled within `ms`; it is not waited for past that. */
async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
