import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.ts';
import { clinicSettingsTag } from './clinic-settings-tag.ts';
import { toErrorAnswer } from './errors.ts';
import { isHttps } from './session-cookie.ts';
import { apiRoutes } from './routes.ts';
import { fhirRoutes } from './routes/fhir.ts';
import { isFhirPath, toFhirErrorAnswer } from './fhir-answers.ts';
import { fhirCors, refuseUnservedFormats, type CorsOrigins } from './fhir-negotiation.ts';
import { serveStatic } from './static.ts';
import { ListenError } from './listen-error.ts';
import { loggedPath, stdoutLog } from './access-log.ts';
import { handleApi } from './api-request.ts';
import { routeTable } from './router.ts';
import { SECURITY_HEADERS, rawErrorAnswer, sendAnswer } from './send-answer.ts';
import { trackInFlight } from './shutdown.ts';

export const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export interface ServerOptions {
  staticDir?: string;
  /** How many proxies of our own stand in front (TRUST_PROXY); 0 believes no X-Forwarded-For. */
  trustProxy?: number;
  /** PUBLIC_URL, when set: the origin of every link the API hands out. */
  publicUrl?: string;
  /** FHIR_CORS_ORIGINS: the origins a browser app may call /fhir/R4 from. */
  fhirCorsOrigins?: CorsOrigins;
  /** Where the access log and unexpected errors go, a line at a time; by default stdout, in batches. */
  log?: (line: string) => void;
}

// A year, as browsers' preload lists ask; subdomains are left to their own servers.
const HSTS = 'max-age=31536000';

export function createMedoraServer(app: App, options: ServerOptions = {}): Server {
  // The FHIR facade's routes are apart from apiRoutes: the OpenAPI document describes /api alone.
  const routes = routeTable([
    ...apiRoutes(app, { publicUrl: options.publicUrl }),
    ...fhirRoutes(app, { publicUrl: options.publicUrl }),
  ]);
  const staticDir = options.staticDir ?? DEFAULT_STATIC_DIR;
  const pageHead = clinicSettingsTag(app.config);
  const trustProxy = options.trustProxy ?? 0;
  const { line: log, flush } = options.log ? { line: options.log, flush: undefined } : stdoutLog();
  // An unexpected error is written out at once, behind the lines before it.
  const logNow = (line: string) => {
    log(line);
    flush?.();
  };
  // Session lookups are remembered once the database's notices are heard; until then each is asked for.
  void app.requests.watchSessions();
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
  trackInFlight(server, { handling, interrupt: () => app.shutdown.interrupt() });
  // What node's parser refuses never reaches a handler; node's own answer would be a bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(rawErrorAnswer(status, randomUUID()));
  });
  return server;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = randomUUID();
    const { path, search } = splitTarget(req.url);
    // Only when HTTPS is known (our socket, or our own proxy says so): over plain HTTP the header means nothing.
    if (isHttps(req, trustProxy)) res.setHeader('strict-transport-security', HSTS);
    const fhir = isFhirPath(path);
    try {
      if (fhir && options.fhirCorsOrigins?.length && fhirCors(options.fhirCorsOrigins, req, res)) return;
      if (fhir) refuseUnservedFormats(req, search);
      if (path === '/api' || path.startsWith('/api/') || fhir) {
        await handleApi(app, routes, req, res, { path, search, requestId, trustProxy });
      } else if (req.method === 'GET' || req.method === 'HEAD') {
        // The UI's files are written by serveStatic, which sets only its own headers.
        res.setHeader('x-request-id', requestId);
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
        await serveStatic(staticDir, path, req, res, { headOnly: req.method === 'HEAD', pageHead });
      } else {
        sendAnswer(
          res,
          requestId,
          {
            status: 405,
            body: { message: 'Method not allowed', code: 'method_not_allowed' },
            headers: { allow: 'GET, HEAD' },
          },
          req,
        );
      }
    } catch (error) {
      const answer = fhir ? toFhirErrorAnswer(error) : toErrorAnswer(error);
      if (answer.unexpected)
        logNow(
          `error rid=${requestId} ${req.method} ${loggedPath(path)}: ${(answer.unexpected as Error)?.stack ?? answer.unexpected}`,
        );
      // Refused before its body was read (too large, not signed in): the rest of the body would stand in the way of
      // the next request on this connection, so the connection ends with the answer.
      if (!res.headersSent)
        sendAnswer(
          res,
          requestId,
          req.complete ? answer : { ...answer, headers: { ...answer.headers, connection: 'close' } },
          req,
        );
      else res.destroy();
    } finally {
      log(
        `${req.method} ${loggedPath(path)} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms rid=${requestId}`,
      );
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

/** Listens on `host`:`port`; when it cannot, rejects with a ListenError that says where and why. */
export async function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error)));
    server.listen(port, host, () => resolve());
  });
  return server.address() as AddressInfo;
}
