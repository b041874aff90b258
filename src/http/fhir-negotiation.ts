import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './errors.ts';

/** What Medora writes under /fhir/R4: FHIR JSON, and its NDJSON and ZIP exports; never XML. */
const WRITTEN =
  /^(\*\/\*|application\/\*|application\/(fhir\+)?json|application\/json\+fhir|application\/(fhir\+)?ndjson|application\/zip)$/;
/** What Medora reads as a request body: FHIR JSON (a Parameters resource), or a form. */
const READ = /^(application\/(fhir\+)?json|application\/json\+fhir|application\/x-www-form-urlencoded)$/;
/** `_format` values that name XML (FHIR R4 §3.1.0.1.9). */
const XML_FORMAT = /^(xml|text\/xml|application\/xml|application\/fhir\+xml|application\/xml\+fhir)$/;

const mediaRanges = (header: string) =>
  header
    .split(',')
    .map((part) => part.split(';'))
    .filter(([, ...params]) => !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p)))
    .map(([range = '']) => range.trim().toLowerCase())
    .filter(Boolean);

const hasBody = (headers: IncomingHttpHeaders) =>
  Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;

/**
 * 406 for a format Medora does not write (XML asked for by `_format` or an Accept with nothing Medora writes), 415
 * for a body of a type it does not read: before the request is routed, so no answer is silently JSON instead.
 */
export function refuseUnservedFormats(req: IncomingMessage, search: string): void {
  const format = new URLSearchParams(search).get('_format');
  if (format !== null && XML_FORMAT.test(format))
    throw new HttpError(406, 'not_acceptable', 'Medora writes FHIR as JSON only, not XML (_format=json)');
  const accept = req.headers.accept;
  if (format === null && accept && !mediaRanges(accept).some((range) => WRITTEN.test(range)))
    throw new HttpError(406, 'not_acceptable', `Medora writes application/fhir+json, not ${accept}`);
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (hasBody(req.headers) && !READ.test(type))
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Medora reads application/fhir+json request bodies, not ${type || 'a body without a Content-Type'}`,
    );
}

/** The Origins a browser app may call /fhir/R4 from (FHIR_CORS_ORIGINS); none by default. */
export type CorsOrigins = readonly string[];

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'authorization, accept, content-type, prefer, if-none-match';
const EXPOSED_HEADERS = 'etag, location, content-location, x-progress, retry-after, x-request-id';

/**
 * CORS for an allowed Origin: its answers readable by that origin's scripts (bearer tokens only: no credentials, so
 * Medora's cookie never goes along). A preflight (OPTIONS) is answered here, 204, and goes no further: true.
 */
export function fhirCors(origins: CorsOrigins, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  const allowed = origin !== undefined && origins.includes(origin);
  if (allowed) {
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  }
  res.setHeader('vary', 'origin');
  if (req.method !== 'OPTIONS') return false;
  if (allowed) {
    res.setHeader('access-control-allow-methods', ALLOWED_METHODS);
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-max-age', '600');
  }
  res.setHeader('allow', ALLOWED_METHODS);
  res.writeHead(204);
  res.end();
  return true;
}
