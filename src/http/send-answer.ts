import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { compressBody, isCompressibleType, MIN_COMPRESSED_BYTES, negotiateEncoding } from './compress.ts';
import { codedTag, ifNoneMatchMatches, strongEtag } from './etag.ts';
import type { Answer } from './router.ts';

/** A page a browser renders (the UI, the API viewer): where it may load from, and that no other site may frame it. */
export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; " +
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
};
/**
 * A JSON answer is data, never a page: it may load nothing and be framed nowhere (OWASP's REST Security Cheat Sheet).
 * The page's longer policy would say nothing more, and node checks every header's characters on every answer.
 */
const JSON_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};
// An API answer passes all its headers to writeHead at once, as [name, value, name, value …]: each setHeader
// call validates its header again, and headers set before writeHead send it down node's slow path.
const PAGE_HEADER_LIST: string[] = Object.entries(SECURITY_HEADERS).flat();
const JSON_HEADER_LIST: string[] = Object.entries(JSON_SECURITY_HEADERS).flat();

/** The request an answer goes to: what it asked for decides HEAD, 304 and the coding. */
export interface AnswerRequest {
  method?: string;
  headers: IncomingHttpHeaders;
}

/**
 * Writes an answer with the request id, the security headers and no-store unless the answer says otherwise.
 * JSON and text over ~1 KB go compressed to a client that accepts it. An answer that may be stored (a GET's 200
 * whose cache-control is not no-store, such as the calendar feed) carries an ETag — its own, else a strong hash
 * of the bytes — and a matching If-None-Match gets 304 with no body. HEAD gets the same headers as GET, no body.
 */
export function sendAnswer(res: ServerResponse, requestId: string, answer: Answer, request?: AnswerRequest): void {
  const status = answer.status ?? (answer.body === undefined ? 204 : 200);
  const json =
    !(answer.body instanceof Uint8Array) &&
    !(answer.body instanceof Readable) &&
    answer.body !== undefined &&
    status !== 204;
  const cacheControl = answer.headers?.['cache-control'] || 'no-store';
  const security = json ? JSON_HEADER_LIST : PAGE_HEADER_LIST;
  const headers: (string | number)[] = [...security, 'x-request-id', requestId, 'cache-control', cacheControl];
  for (const [name, value] of Object.entries(answer.headers ?? {})) {
    if (name !== 'cache-control' && name !== 'etag' && !(json && name === 'content-type')) headers.push(name, value);
  }
  const method = request?.method ?? 'GET';
  if (answer.body instanceof Readable) {
    // A stream (a large export) goes as it is made, chunked, uncompressed and never held whole.
    res.writeHead(status, headers);
    if (method === 'HEAD') {
      answer.body.destroy();
      res.end();
    } else {
      pipeline(answer.body, res, () => undefined);
    }
    return;
  }
  // JSON goes as the string it was made as: node writes a string without the copy into a buffer first.
  let payload: Buffer | string | undefined;
  if (answer.body instanceof Uint8Array) {
    payload = Buffer.from(answer.body);
  } else if (json) {
    payload = JSON.stringify(answer.body);
    headers.push('content-type', 'application/json; charset=utf-8');
  }
  let size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload?.length;
  if (payload !== undefined && size !== undefined && request) {
    const varies =
      size >= MIN_COMPRESSED_BYTES &&
      !answer.headers?.['content-encoding'] &&
      isCompressibleType(json ? 'application/json' : answer.headers?.['content-type']);
    const coding = varies ? negotiateEncoding(request.headers['accept-encoding'], ['br', 'gzip']) : undefined;
    if (varies) headers.push('vary', 'accept-encoding');
    const storable = status === 200 && (method === 'GET' || method === 'HEAD') && !/no-store/i.test(cacheControl);
    const given = answer.headers?.etag;
    const etag = !storable ? undefined : given ? codedTag(given, coding) : strongEtag(payload, coding);
    if (etag) {
      if (ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
        const notModified: (string | number)[] = [
          ...security,
          'x-request-id',
          requestId,
          'cache-control',
          cacheControl,
          'etag',
          etag,
        ];
        if (varies) notModified.push('vary', 'accept-encoding');
        res.writeHead(304, notModified);
        res.end();
        return;
      }
      headers.push('etag', etag);
    }
    if (coding) {
      payload = compressBody(payload, coding);
      size = payload.length;
      headers.push('content-encoding', coding);
    }
  }
  if (size !== undefined) headers.push('content-length', size);
  res.writeHead(status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
}
