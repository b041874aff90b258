import type { OutgoingHttpHeader, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { HttpError } from '../http/errors.ts';
import { match, routeTable, type Route } from '../http/router.ts';
import { contract } from './contract.ts';
import { recordUncovered, recordValidated } from './contract-coverage.ts';

export interface ContractObserver {
  /** The complaint about the answer with this request id, once: `api()` throws it where the test asked. */
  take(requestId: string | null): Error | undefined;
  /** The complaints nobody took (answers to a test's own fetch), for the test server's close() to throw. */
  untaken(): Error[];
}

/**
 * Checks every /api answer `server` writes against the OpenAPI document, in the test process, as it is written:
 * whatever client a test uses — `api()`, its own fetch, a raw socket — its answers are checked, and the server
 * itself carries no test-only code. `routes` is the server's table, which tells a route the document lacks from
 * an unknown path.
 */
export function observeContract(server: Server, routes: Route[]): ContractObserver {
  const complaints = new Map<string, Error>();
  const table = routeTable(routes);
  const routeExists = (method: string, path: string) => {
    try {
      match(table, method, path);
      return true;
    } catch (error) {
      return error instanceof HttpError && error.status === 400;
    }
  };
  server.prependListener('request', (req, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path !== '/api' && !path.startsWith('/api/')) return;
    let headers: Record<string, string> = {};
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      headers = headerRecord(
        rest.find((arg) => typeof arg === 'object') as OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
      );
      return (writeHead as (...args: unknown[]) => ServerResponse).call(this, status, ...rest);
    } as typeof res.writeHead;
    const end = res.end;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      const chunk = args.find((arg) => typeof arg === 'string' || arg instanceof Uint8Array) as
        | string
        | Uint8Array
        | undefined;
      const contentType = headers['content-type'] ?? String(res.getHeader('content-type') ?? '');
      try {
        const checked = contract().checkAnswer(
          {
            method: req.method ?? 'GET',
            path,
            status: res.statusCode,
            contentType,
            body: bodyOf(chunk, headers['content-encoding'], contentType),
          },
          routeExists,
        );
        if ('operation' in checked) recordValidated(checked.operation, res.statusCode);
        if ('uncovered' in checked) recordUncovered(`${req.method} ${path}`);
      } catch (complaint) {
        complaints.set(headers['x-request-id'] ?? `${req.method} ${path}`, complaint as Error);
      }
      return (end as (...args: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.end;
  });
  return {
    take(requestId) {
      const complaint = requestId === null ? undefined : complaints.get(requestId);
      if (requestId !== null) complaints.delete(requestId);
      return complaint;
    },
    untaken: () => [...complaints.values()],
  };
}

function headerRecord(headers: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined): Record<string, string> {
  const pairs: [string, unknown][] = [];
  if (Array.isArray(headers))
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([String(headers[i]), headers[i + 1]]);
  else if (headers) pairs.push(...Object.entries(headers));
  return Object.fromEntries(pairs.map(([name, value]) => [name.toLowerCase(), String(value)]));
}

/** The body as the client reads it: unpacked, and parsed when it is JSON. */
function bodyOf(chunk: string | Uint8Array | undefined, coding: string | undefined, contentType: string): unknown {
  if (chunk === undefined || chunk.length === 0) return undefined;
  const packed = Buffer.from(chunk);
  const bytes =
    coding === 'br'
      ? brotliDecompressSync(packed)
      : coding === 'gzip'
        ? gunzipSync(packed)
        : coding === 'deflate'
          ? inflateSync(packed)
          : packed;
  if (!/^application\/(.+\+)?json/i.test(contentType)) return bytes;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return bytes.toString('utf8');
  }
}
