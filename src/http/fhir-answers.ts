import type { IncomingHttpHeaders } from 'node:http';
import type { Resource } from '@medplum/fhirtypes';
import { errorOutcome } from '../domain/fhir/outcome.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { HttpError, toErrorAnswer } from './errors.ts';
import type { Answer } from './router.ts';

const FHIR_BASE_PATH = '/fhir/R4';
export const isFhirPath = (path: string) => path === FHIR_BASE_PATH || path.startsWith(`${FHIR_BASE_PATH}/`);

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** A resource as FHIR's JSON: bytes, so the answer keeps its own content type (sendAnswer labels objects application/json). */
export const fhirAnswer = (resource: Resource, status = 200): Answer => ({
  status,
  body: Buffer.from(JSON.stringify(resource)),
  headers: { 'content-type': FHIR_JSON },
});

const NDJSON = 'application/fhir+ndjson';

/** `_format` asking for NDJSON (the Bulk Data format): one resource a line. */
export const wantsNdjson = (search: string | undefined) =>
  /^(ndjson|application\/(fhir\+)?ndjson)$/.test(new URLSearchParams(search ?? '').get('_format') ?? '');

/** Resources one a line, as a file to save; the resources are all read (and any refusal thrown) before answering. */
export async function ndjsonAnswer(resources: AsyncIterable<Resource>, filename: string): Promise<Answer> {
  const lines: string[] = [];
  for await (const resource of resources) lines.push(`${JSON.stringify(resource)}\n`);
  return { body: Buffer.from(lines.join('')), headers: { 'content-type': NDJSON, 'content-disposition': `attachment; filename="${filename}"` } };
}

/** An error under /fhir/R4: the status and headers of every other answer, the body an OperationOutcome. */
export function toFhirErrorAnswer(error: unknown): Answer & { status: number; unexpected?: unknown } {
  const plain = toErrorAnswer(error);
  const kind = error instanceof DomainError ? error.kind : undefined;
  // FHIR answers a search it cannot process with 400 (R4 §3.1.0.4), not the API's 422.
  const status = kind === 'invalid' ? 400 : plain.status;
  const issueKind = kind ?? (error instanceof HttpError ? (plain.status === 404 ? 'not_found' : plain.status === 413 ? 'too_large' : 'invalid') : undefined);
  const answer = fhirAnswer(errorOutcome(issueKind, plain.body.message), status);
  return { ...answer, status, headers: { ...plain.headers, ...answer.headers }, unexpected: plain.unexpected };
}

/** The base URL the resources' links start with: PUBLIC_URL when set, else the address the client used. */
export const fhirBase = (publicUrl: string | undefined, ctx: { https: boolean; headers: IncomingHttpHeaders }) =>
  `${publicUrl ?? `${ctx.https ? 'https' : 'http'}://${ctx.headers.host ?? 'localhost'}`}${FHIR_BASE_PATH}`;

/** `Prefer: handling=strict` (FHIR R4 §3.1.1.4): refuse unknown search parameters rather than ignore them. */
export const prefersStrict = (headers: IncomingHttpHeaders) => /(^|[\s,;])handling\s*=\s*strict\b/i.test(String(headers.prefer ?? ''));
