import { Readable } from 'node:stream';
import type { App } from '../../app.ts';
import { operationOutcome } from '../../domain/fhir/outcome.ts';
import { invalid } from '../../domain/shared/errors.ts';
import { fhirAnswer, fhirBase, fhirSystems } from '../fhir-answers.ts';
import { route, type Answer, type Route } from '../router.ts';

/** Bulk Data's `_outputFormat` values for NDJSON, the one format Medora writes files in. */
const NDJSON_FORMAT = /^(ndjson|application\/(fhir\+)?ndjson)$/;

/**
 * The system-level Bulk Data export (FHIR Bulk Data Access 2.0), admins only: the kick-off answers 202 with the
 * status URL in Content-Location; polling it answers 202 with X-Progress while the background job works, then the
 * manifest (with Expires: EXPORT_RETENTION_HOURS after the job finished), whose files are read at absolute URLs with
 * the same bearer token until then; after it, the status and files answer 404. DELETE cancels a running job or deletes
 * a finished one, with its files.
 */
export function systemExportRoutes(app: App, publicUrl: string | undefined): Route[] {
  const systems = fhirSystems(publicUrl);
  return [
    route('GET', '/fhir/R4/$export', 'admin', async (ctx) => {
      const base = fhirBase(publicUrl, ctx);
      const params = [...new URLSearchParams(ctx.search ?? '')];
      const format = params.find(([name]) => name === '_outputFormat')?.[1];
      if (format !== undefined && !NDJSON_FORMAT.test(format))
        throw invalid({ _outputFormat: [`Medora writes application/fhir+ndjson, not ${format}`] });
      const request = `${base}/$export${ctx.search ? `?${ctx.search}` : ''}`;
      const id = await app.fhirExport.startSystemExport({ base, systems, params, request }, ctx.actor);
      const accepted = operationOutcome([
        { severity: 'information', code: 'informational', diagnostics: 'The export has begun; poll Content-Location' },
      ]);
      return {
        ...fhirAnswer(accepted, 202),
        headers: { ...fhirAnswer(accepted).headers, 'content-location': `${base}/$export-status/${id}` },
      };
    }),
    route('GET', '/fhir/R4/$export-status/{id}', 'admin', async (ctx): Promise<Answer> => {
      const status = await app.fhirExport.systemExportStatus({ id: ctx.params.id }, ctx.actor);
      if (status.state === 'running')
        return { status: 202, headers: { 'x-progress': status.progress, 'retry-after': '2' } };
      // Bulk Data: the answer says until when the manifest and its files are kept.
      const expires = status.expires.toUTCString();
      if (status.state === 'failed') {
        const failed = fhirAnswer(
          operationOutcome([{ severity: 'error', code: 'exception', diagnostics: status.error }]),
          500,
        );
        return { ...failed, headers: { ...failed.headers, expires } };
      }
      return {
        body: Buffer.from(JSON.stringify(status.manifest)),
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', expires },
      };
    }),
    route('DELETE', '/fhir/R4/$export-status/{id}', 'admin', async (ctx) => {
      await app.fhirExport.cancelSystemExport({ id: ctx.params.id }, ctx.actor);
      return { status: 202 };
    }),
    route('GET', '/fhir/R4/$export-file/{id}/{file}', 'admin', async (ctx) => {
      const chunks = await app.fhirExport.systemExportFile({ id: ctx.params.id, file: ctx.params.file }, ctx.actor);
      return {
        body: Readable.from(chunks),
        headers: { 'content-type': 'application/fhir+ndjson', 'cache-control': 'no-store' },
      };
    }),
  ];
}
