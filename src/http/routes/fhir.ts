import type { App } from '../../app.ts';
import {
  exportFormat,
  fhirAnswer,
  fhirBase,
  fhirSystems,
  ndjsonAnswer,
  prefersStrict,
  zipAnswer,
} from '../fhir-answers.ts';
import { route, type Route } from '../router.ts';

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
    route('GET', '/fhir/R4/Patient/{id}/$everything', 'user', async (ctx) => {
      const base = fhirBase(publicUrl, ctx);
      const format = exportFormat(ctx.search);
      const params = [...new URLSearchParams(ctx.search ?? '')];
      if (format === undefined) {
        return fhirAnswer(
          await app.fhir.patientEverything(
            { base, systems, id: ctx.params.id, params, strict: prefersStrict(ctx.headers) },
            ctx.actor,
          ),
        );
      }
      const request = `${base}/Patient/${ctx.params.id}/$everything?${ctx.search ?? ''}`;
      const exported = await app.fhir.exportPatient(
        { base, systems, id: ctx.params.id, params, request, format },
        ctx.actor,
      );
      const name = `patient-${ctx.params.id}`;
      if (format === 'ndjson') return ndjsonAnswer(exported, `${name}.ndjson`);
      const own = ctx.actor.role === 'patient' && String(ctx.actor.patientId) === ctx.params.id;
      return zipAnswer(exported, `${name}.zip`, own ? await app.healthRecord.myHealthRecord(ctx.actor) : undefined);
    }),
    route('GET', '/fhir/R4/{type}/{id}', 'user', async (ctx) =>
      fhirAnswer(
        await app.fhir.readResource(
          { base: fhirBase(publicUrl, ctx), systems, type: ctx.params.type, id: ctx.params.id },
          ctx.actor,
        ),
      ),
    ),
  ];
}
