import type { ServerResponse } from 'node:http';
import type { Answer } from './router.ts';

export const SECURITY_HEADERS = {
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

/** Writes an answer with the request id, the security headers and no-store unless the answer says otherwise. */
export function sendAnswer(res: ServerResponse, requestId: string, answer: Answer, headOnly = false): void {
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
