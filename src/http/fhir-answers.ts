import type { IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Resource } from '@medplum/fhirtypes';
import { allResources, writeNdjsonFiles } from '../domain/fhir/bulk-files.ts';
import type { PatientExport } from '../domain/fhir/everything-use-case.ts';
import { fhirSystemsBase } from '../domain/fhir/fhir.ts';
import { errorOutcome, operationOutcome } from '../domain/fhir/outcome.ts';
import { DomainError } from '../domain/shared/errors.ts';
import { HttpError, toErrorAnswer } from './errors.ts';
import type { Answer } from './router.ts';
import { ZipWriter } from './zip-writer.ts';

const FHIR_BASE_PATH = '/fhir/R4';
export const isFhirPath = (path: string) => path === FHIR_BASE_PATH || path.startsWith(`${FHIR_BASE_PATH}/`);

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** A resource as FHIR's JSON: bytes, so the answer keeps its own content type (sendAnswer labels objects application/json). */
export const fhirAnswer = (resource: Resource, status = 200): Answer => ({
  status,
  body: Buffer.from(JSON.stringify(resource)),
  headers: { 'content-type': FHIR_JSON },
});

/**
 * A read: revalidated each time (private: it is one reader's view), its ETag the version FHIR names it by
 * (W/"<meta.versionId>", R4 §3.1.0.5.3), so If-None-Match answers 304. A resource without a version (a Slot, a bed)
 * gets the hash of its bytes from sendAnswer.
 */
export function readAnswer(resource: Resource): Answer {
  const answer = fhirAnswer(resource);
  const version = resource.meta?.versionId;
  return {
    ...answer,
    headers: {
      ...answer.headers,
      'cache-control': 'private, no-cache',
      ...(version === undefined ? {} : { etag: `W/"${version}"` }),
    },
  };
}

const NDJSON = 'application/fhir+ndjson';

/** `_format` asking for NDJSON (the Bulk Data format), one resource a line, or for a ZIP of one NDJSON file per type. */
export function exportFormat(search: string | undefined): 'ndjson' | 'zip' | undefined {
  const format = new URLSearchParams(search ?? '').get('_format') ?? '';
  if (/^(ndjson|application\/(fhir\+)?ndjson)$/.test(format)) return 'ndjson';
  return format === 'application/zip' || format === 'zip' ? 'zip' : undefined;
}

const attachment = (contentType: string, filename: string) => ({
  'content-type': contentType,
  'content-disposition': `attachment; filename="${filename}"`,
});

/** Feeds `body` from `produce`; a failure part-way ends the download broken rather than quietly short. */
function streamed(produce: (body: PassThrough) => Promise<void>): PassThrough {
  const body = new PassThrough();
  produce(body).catch((error: unknown) => body.destroy(error instanceof Error ? error : new Error(String(error))));
  return body;
}

/** Every resource one a line, streamed as it is read. */
export function ndjsonAnswer(exported: PatientExport, filename: string): Answer {
  const body = streamed(async (out) => {
    for await (const resource of allResources(exported)) {
      if (!out.write(`${JSON.stringify(resource)}\n`)) await once(out, 'drain');
    }
    out.end();
  });
  return { body, headers: attachment(NDJSON, filename) };
}

/**
 * A ZIP of `<type>.ndjson` files and their Bulk Data manifest.json (its urls the files' names inside the archive),
 * streamed as it is read: one file any Bulk Data client reads, and, for a patient's own, `index.html`, their health
 * record to read and print.
 */
export function zipAnswer(exported: PatientExport, filename: string, healthRecord?: string): Answer {
  const body = streamed(async (out) => {
    const zip = new ZipWriter(out, new Date(exported.transactionTime));
    if (healthRecord !== undefined) {
      const page = await zip.entry('index.html');
      await page.write(healthRecord);
      await page.close();
    }
    const manifest = await writeNdjsonFiles(
      exported,
      (name) => zip.entry(name),
      (name) => name,
    );
    const entry = await zip.entry('manifest.json');
    await entry.write(`${JSON.stringify(manifest, null, 2)}\n`);
    await entry.close();
    await zip.finish();
  });
  return { body, headers: attachment('application/zip', filename) };
}

/** An error under /fhir/R4: the status and headers of every other answer, the body an OperationOutcome. */
export function toFhirErrorAnswer(error: unknown): Answer & { status: number; unexpected?: unknown } {
  const plain = toErrorAnswer(error);
  const kind = error instanceof DomainError ? error.kind : undefined;
  // FHIR answers a search it cannot process with 400 (R4 §3.1.0.4), not the API's 422.
  const status = kind === 'invalid' ? 400 : plain.status;
  const issueKind =
    kind ??
    (error instanceof HttpError
      ? plain.status === 404
        ? 'not_found'
        : plain.status === 413
          ? 'too_large'
          : 'invalid'
      : undefined);
  const outcome =
    status === 406 || status === 415
      ? operationOutcome([{ severity: 'error', code: 'not-supported', diagnostics: plain.body.message }])
      : errorOutcome(issueKind, plain.body.message);
  const answer = fhirAnswer(outcome, status);
  return { ...answer, status, headers: { ...plain.headers, ...answer.headers }, unexpected: plain.unexpected };
}

/** The base of Medora's identifier and code systems: PUBLIC_URL's when set, else a fixed URN, never the request's Host. */
export const fhirSystems = (publicUrl: string | undefined) => fhirSystemsBase(publicUrl, FHIR_BASE_PATH);

/** The base URL the resources' links start with: PUBLIC_URL when set, else the address the client used. */
export const fhirBase = (publicUrl: string | undefined, ctx: { https: boolean; headers: IncomingHttpHeaders }) =>
  `${publicUrl ?? `${ctx.https ? 'https' : 'http'}://${ctx.headers.host ?? 'localhost'}`}${FHIR_BASE_PATH}`;

/** `Prefer: handling=strict` (FHIR R4 §3.1.1.4): refuse unknown search parameters rather than ignore them. */
export const prefersStrict = (headers: IncomingHttpHeaders) =>
  /(^|[\s,;])handling\s*=\s*strict\b/i.test(String(headers.prefer ?? ''));
