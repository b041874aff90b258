/**
 * The bare twins of the clinical reads: each answers its request by calling the very use case Medora's route calls
 * (src/domain/…), on deps composed as app.ts composes them, and answers the same JSON. The use case checks its own
 * input and the caller's reach, as it does in Medora; what the twin leaves out is the framework around it — the
 * route table, the role check, security headers, request ids and the access log.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { fhirApiDeps, inpatientDeps, labDeps, medicinesDeps, vitalsDeps, type AppConfig } from '../../src/app.ts';
import type { Actor } from '../../src/domain/shared/actor.ts';
import { patientEverything } from '../../src/domain/fhir/everything-use-case.ts';
import { searchResources } from '../../src/domain/fhir/use-cases.ts';
import { bedBoard } from '../../src/domain/inpatient/bed-use-cases.ts';
import { resultsToReview } from '../../src/domain/lab/api-use-cases.ts';
import { wardMar } from '../../src/domain/medicines/mar-use-cases.ts';
import { flowsheet } from '../../src/domain/vitals/use-cases.ts';
import type { Clock } from '../../src/domain/shared/clock.ts';
import type { Db } from '../../src/db/db.ts';
import { fhirBase, fhirSystems } from '../../src/http/fhir-answers.ts';

export interface ClinicalAsk {
  actor: Actor;
  path: string;
  search: string;
  headers: IncomingHttpHeaders;
}

/** `[prefix, exact, answer]` of each clinical read, as twins.ts matches its reads. */
export function clinicalReadTwins(
  db: Db,
  config: AppConfig,
  clock: Clock,
): { prefix: string; exact: boolean; answer: (ask: ClinicalAsk) => Promise<{ status: number; body: unknown }> }[] {
  const inpatient = inpatientDeps(db, clock, config);
  const vitals = vitalsDeps(db, clock, config);
  const lab = labDeps(db, clock, config);
  const medicines = medicinesDeps(db, clock, config);
  const fhir = fhirApiDeps(db, clock, config);
  // The bench's servers run without PUBLIC_URL: links follow the address the client used.
  const systems = fhirSystems(undefined);
  const ok = (body: unknown) => ({ status: 200, body });
  const queryOf = (search: string) => Object.fromEntries(new URLSearchParams(search));
  const idAfter = (path: string, prefix: string) => path.slice(prefix.length).split('/')[0] ?? '';
  const base = (headers: IncomingHttpHeaders) => fhirBase(undefined, { https: false, headers });

  return [
    {
      prefix: '/api/bed-board',
      exact: true,
      answer: async ({ actor, search }) => ok(await bedBoard(inpatient, queryOf(search), actor)),
    },
    {
      prefix: '/api/admissions/',
      exact: false,
      answer: async ({ actor, path }) => ok(await flowsheet(vitals, idAfter(path, '/api/admissions/'), actor)),
    },
    {
      prefix: '/api/wards/',
      exact: false,
      answer: async ({ actor, path, search }) =>
        ok(await wardMar(medicines, idAfter(path, '/api/wards/'), queryOf(search), actor)),
    },
    {
      prefix: '/api/doctor/results-to-review',
      exact: true,
      answer: async ({ actor, search }) => {
        const page = await resultsToReview(lab, queryOf(search), actor);
        return ok({
          results: page.items,
          total: page.total,
          total_is_lower_bound: page.totalIsLowerBound,
          page: page.page,
          per_page: page.perPage,
        });
      },
    },
    {
      prefix: '/fhir/R4/Observation',
      exact: true,
      answer: async ({ actor, search, headers }) =>
        ok(
          await searchResources(
            fhir,
            {
              base: base(headers),
              systems,
              type: 'Observation',
              params: [...new URLSearchParams(search)],
              strict: false,
            },
            actor,
          ),
        ),
    },
    {
      prefix: '/fhir/R4/Patient/',
      exact: false,
      answer: async ({ actor, path, search, headers }) =>
        ok(
          await patientEverything(
            fhir,
            {
              base: base(headers),
              systems,
              id: idAfter(path, '/fhir/R4/Patient/'),
              params: [...new URLSearchParams(search)],
              strict: false,
            },
            actor,
          ),
        ),
    },
  ];
}
