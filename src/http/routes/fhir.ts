import type { App } from '../../app.ts';
import {
  exportFormat,
  fhirAnswer,
  fhirBase,
  fhirSystems,
  ndjsonAnswer,
  prefersStrict,
  readAnswer,
  zipAnswer,
} from '../fhir-answers.ts';
import { operationParams } from '../../domain/fhir/operation-parameters.ts';
import { systemExportRoutes } from './fhir-export.ts';
import { route, type Answer, type RequestContext, type Route } from '../router.ts';

/**
 * The read-only FHIR R4 facade (issue 33), one route a line: signed in as for /api; which resources each role
 * reads is the fhir module's. Its contract is the CapabilityStatement at /fhir/R4/metadata, not the OpenAPI document.
 */
export function fhirRoutes(app: App, { publicUrl }: { publicUrl?: string } = {}): Route[] {
  // Links follow the address the client used when PUBLIC_URL is unset; identifier and code systems never do.
  const systems = fhirSystems(publicUrl);
  return [
    route('GET', '/fhir/R4/metadata', 'public', async (ctx) =>
      fhirAnswer(app.fhir.capabilities({ base: fhirBase(publicUrl, ctx) })),
    ),
    // Before `{type}` and `{type}/{id}`, which their paths would match too.
    ...systemExportRoutes(app, publicUrl),
    route('GET', '/fhir/R4/{type}', 'user', async (ctx) =>
      fhirAnswer(
        await app.fhir.searchResources(
          {
            base: fhirBase(publicUrl, ctx),
            systems,
            type: ctx.params.type,
            params: [...new URLSearchParams(ctx.search ?? '')],
            strict: prefersStrict(ctx.headers),
          },
          ctx.actor,
        ),
      ),
    ),
    route('GET', '/fhir/R4/Patient/{id}/$everything', 'user', everything),
    // fhir-kit-client and others POST an operation by default, its parameters in the body (FHIR R4 §3.1.0.1.4).
    route('POST', '/fhir/R4/Patient/{id}/$everything', 'user', everything),
    route('GET', '/fhir/R4/{type}/{id}', 'user', async (ctx) =>
      readAnswer(
        await app.fhir.readResource(
          { base: fhirBase(publicUrl, ctx), systems, type: ctx.params.type, id: ctx.params.id },
          ctx.actor,
        ),
      ),
    ),
  ];

  async function everything(ctx: RequestContext<{ id: string }>): Promise<Answer> {
    const base = fhirBase(publicUrl, ctx);
    const search = new URLSearchParams(ctx.search ?? '');
    const posted = operationParams(ctx.body);
    for (const [name, value] of posted) search.append(name, value);
    // What was asked for, as the manifest repeats it: the query as sent, unless a body added to it.
    const query = posted.length ? search.toString() : (ctx.search ?? '');
    const format = exportFormat(query);
    const params = [...search];
    if (format === undefined) {
      return fhirAnswer(
        await app.fhir.patientEverything(
          { base, systems, id: ctx.params.id, params, strict: prefersStrict(ctx.headers) },
          ctx.actor,
        ),
      );
    }
    const request = `${base}/Patient/${ctx.params.id}/$everything?${query}`;
    const exported = await app.fhir.exportPatient(
      { base, systems, id: ctx.params.id, params, request, format },
      ctx.actor,
    );
    const name = `patient-${ctx.params.id}`;
    if (format === 'ndjson') return ndjsonAnswer(exported, `${name}.ndjson`);
    // A patient's own download also holds their health record as a page to read and print.
    const own = ctx.actor.role === 'patient' && String(ctx.actor.patientId) === ctx.params.id;
    return zipAnswer(exported, `${name}.zip`, own ? await app.healthRecord.myHealthRecord(ctx.actor) : undefined);
  }
}
