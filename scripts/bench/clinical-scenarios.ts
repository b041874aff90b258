/**
 * The clinical reads and writes the bench drives (clinical.ts), each with how to count the items of its answer, so
 * the run can show the answers were as full at every scale.
 */
import type { ClinicalFixtures } from './clinical-fixtures.ts';
import type { WriteRequest } from './fixtures.ts';
import { consuming, cycling, type Scenario } from './load.ts';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** Five years back from the run: the trend's window. */
const FIVE_YEARS_MS = 5 * 365.25 * 86_400_000;
export const EVERYTHING_PAGE = 100;

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

export interface ClinicalScenario extends Scenario {
  /** The items one answer lists. */
  itemsOf(body: unknown): number;
}

export function clinicalReadScenarios(f: ClinicalFixtures, now: Date): ClinicalScenario[] {
  const since = new Date(now.getTime() - FIVE_YEARS_MS).toISOString().slice(0, 10);
  const nurse = bearer(f.nurseToken);
  const read = (
    name: string,
    path: string,
    next: Scenario['next'],
    itemsOf: ClinicalScenario['itemsOf'],
  ): ClinicalScenario => ({ name, method: 'GET', path, expectStatus: 200, next, itemsOf });
  const entries = (body: unknown) => list((body as Json).entry).length;
  return [
    read(
      `GET /fhir/R4/Observation?patient&code=${f.trendCode}&date=ge… (a 5-year trend)`,
      '/fhir/R4/Observation',
      cycling(f.trends, (t) => ({
        method: 'GET',
        path: `/fhir/R4/Observation?patient=${t.patientId}&code=http://loinc.org|${f.trendCode}&date=ge${since}&_count=100`,
        headers: bearer(t.token),
      })),
      entries,
    ),
    read(
      'GET /api/doctor/results-to-review',
      '/api/doctor/results-to-review',
      cycling(f.doctorTokens, (token) => ({
        method: 'GET',
        path: '/api/doctor/results-to-review',
        headers: bearer(token),
      })),
      (body) => list((body as Json).results).length,
    ),
    read(
      "GET /api/admissions/{id}/flowsheet (a stay's 72 h)",
      '/api/admissions/{id}/flowsheet',
      cycling(f.stayIds, (id) => ({ method: 'GET', path: `/api/admissions/${id}/flowsheet`, headers: nurse })),
      (body) => list((body as Json).sets).length,
    ),
    read(
      'GET /api/bed-board (a 30-bed ward with NEWS2)',
      '/api/bed-board',
      cycling([nurse], (headers) => ({ method: 'GET', path: '/api/bed-board', headers })),
      (body) =>
        list((body as Json).wards)
          .flatMap((w) => list(w.rooms))
          .flatMap((r) => list(r.beds)).length,
    ),
    read(
      "GET /api/wards/{id}/mar (a ward's day)",
      '/api/wards/{id}/mar',
      cycling([f.wardId], (id) => ({ method: 'GET', path: `/api/wards/${id}/mar`, headers: nurse })),
      (body) =>
        list((body as Json).patients)
          .flatMap((p) => list(p.orders))
          .flatMap((o) => list(o.doses)).length,
    ),
    read(
      `GET /fhir/R4/Patient/{id}/$everything (${f.everything.observations} observations, a page of ${EVERYTHING_PAGE})`,
      '/fhir/R4/Patient/{id}/$everything',
      cycling([f.everything], (p) => ({
        method: 'GET',
        path: `/fhir/R4/Patient/${p.patientId}/$everything?_count=${EVERYTHING_PAGE}`,
        headers: bearer(p.token),
      })),
      entries,
    ),
  ];
}

/** A clinical write over its targets, each sent once. */
export function clinicalWriteScenario(name: string, path: string, requests: WriteRequest[]): Scenario {
  return {
    name,
    method: 'POST',
    path,
    expectStatus: 201,
    maxRequests: requests.length,
    next: consuming(requests, (w) => ({
      method: 'POST',
      path: w.path,
      headers: { 'content-type': 'application/json', ...bearer(w.token) },
      body: w.body,
    })),
  };
}
