import type { Request } from 'autocannon';
import { addDays } from '../../src/domain/shared/clock.ts';
import { BENCH_PASSWORD, FIRST_NAMES, LAST_NAMES } from './dataset.ts';
import type { Fixtures, WriteKind, WriteRequest } from './fixtures.ts';
import { consuming, cycling, nth, type Scenario } from './load.ts';

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What an admin types into the patient search: surnames, first names, part of an e-mail; a few pages deep. */
export function patientSearches(perPage: number): string[] {
  const words = [...LAST_NAMES.slice(0, 12), ...FIRST_NAMES.slice(0, 8)].map((word) => word.toLowerCase());
  return words.flatMap((word, i) =>
    [`q=${word}&page=1`, `q=${word.slice(0, 4)}&page=${1 + (i % 3)}`].map((q) => `${q}&per_page=${perPage}`),
  );
}

/** The admin's patient table asks for 10 rows a page unless they pick more; the API's default is 50. */
const PATIENT_PAGE_SIZES = [
  { perPage: 10, label: '10 a page, as the admin screen asks' },
  { perPage: 50, label: '50 a page, the API default' },
];

/**
 * GET /api/doctors as patients browse it: the API's page of 50, or with `perPage` a page that size — the bench
 * asks for as many as the smallest hospital of the run has, so every scale answers an equally full page and the
 * growth is the query's, not the answer's.
 */
export function doctorsScenario(f: Fixtures, perPage?: number): Scenario {
  const path = perPage === undefined ? '/api/doctors' : `/api/doctors?per_page=${perPage}`;
  return {
    name: perPage === undefined ? 'GET /api/doctors' : `GET /api/doctors (${perPage} a page, full at every scale)`,
    method: 'GET',
    path: '/api/doctors',
    expectStatus: 200,
    next: cycling(f.patients, (p) => ({ method: 'GET', path, headers: bearer(p.token) })),
  };
}

/**
 * Every read endpoint the bench drives; each has a bare twin (twins.ts) that is driven with the same requests.
 * `doctorsPerPage`: the doctors' list's page, when the run compares hospitals (doctorsScenario).
 */
export function readScenarios(f: Fixtures, doctorsPerPage?: number): Scenario[] {
  const read = (path: string, next: () => Request, variant?: string): Scenario => ({
    name: `GET ${path}${variant ? ` (${variant})` : ''}`,
    method: 'GET',
    path,
    expectStatus: 200,
    next,
  });
  const admin = bearer(f.adminToken);
  const doctorsAndPatients = f.doctorIds.map((id, i) => ({ id, token: nth(f.patients, i % f.patients.length).token }));
  return [
    doctorsScenario(f, doctorsPerPage),
    read(
      '/api/appointments/available/{id}',
      cycling(doctorsAndPatients, (d) => ({
        method: 'GET',
        path: `/api/appointments/available/${d.id}`,
        headers: bearer(d.token),
      })),
    ),
    ...PATIENT_PAGE_SIZES.map(({ perPage, label }) =>
      read(
        '/api/admin/patients?q=…',
        cycling(patientSearches(perPage), (query) => ({
          method: 'GET',
          path: `/api/admin/patients?${query}`,
          headers: admin,
        })),
        label,
      ),
    ),
    read(
      '/api/admin/statistics',
      cycling([admin], (headers) => ({ method: 'GET', path: '/api/admin/statistics', headers })),
    ),
    read(
      '/api/admin/top-doctor',
      cycling([admin], (headers) => ({ method: 'GET', path: '/api/admin/top-doctor', headers })),
    ),
    read(
      '/api/patient/billings',
      cycling(f.patients, (p) => ({ method: 'GET', path: '/api/patient/billings', headers: bearer(p.token) })),
    ),
    read(
      '/api/doctor/patients/{id}',
      cycling(f.doctorVisits, (v) => ({
        method: 'GET',
        path: `/api/doctor/patients/${v.patientId}`,
        headers: bearer(v.token),
      })),
    ),
    ...adminListScenarios(f, read),
  ];
}

/**
 * The admin's lists with their filters and the CSV exports of them: a doctor's last month (the same few hundred
 * visits at every scale, since each doctor's diary is as full), and the hospital's unpaid bills, newest first.
 */
function adminListScenarios(
  f: Fixtures,
  read: (path: string, next: () => Request, variant?: string) => Scenario,
): Scenario[] {
  const headers = bearer(f.adminToken);
  const lastMonth = `from=${addDays(f.today, -30)}&to=${f.today}`;
  const doctorsMonth = (path: string) =>
    read(
      path,
      cycling(f.doctorIds, (id) => ({ method: 'GET', path: `${path}?doctor_id=${id}&${lastMonth}`, headers })),
      "a doctor's last month",
    );
  return [
    doctorsMonth('/api/admin/appointments'),
    read(
      '/api/admin/billings',
      cycling([1, 2, 3], (page) => ({
        method: 'GET',
        path: `/api/admin/billings?status=unpaid&page=${page}`,
        headers,
      })),
      'unpaid, newest first',
    ),
    doctorsMonth('/api/admin/appointments.csv'),
    doctorsMonth('/api/admin/billings.csv'),
  ];
}

/** The writes the bench drives on Medora and on its twin, each under the route Medora answers it on. */
export const WRITES: Record<WriteKind, { name: string; path: string; expectStatus: number }> = {
  booking: { name: 'POST /api/appointments/book', path: '/api/appointments/book', expectStatus: 201 },
  record: {
    name: 'POST /api/doctor/appointments/{id}/medical-record',
    path: '/api/doctor/appointments/{id}/medical-record',
    expectStatus: 201,
  },
  payment: { name: 'POST /api/billings/{id}/payments', path: '/api/billings/{id}/payments', expectStatus: 200 },
};

/** Each request a target of its own (a free slot, a booked visit, an unpaid bill), so each is real work that must succeed. */
export function writeScenario(kind: WriteKind, requests: WriteRequest[]): Scenario {
  return {
    ...WRITES[kind],
    method: 'POST',
    maxRequests: requests.length,
    next: consuming(requests, (w) => ({
      method: 'POST',
      path: w.path,
      headers: { ...json, ...bearer(w.token) },
      body: w.body,
    })),
  };
}

/**
 * A write's scenarios for `turns` turns on Medora and as many on its twin: the targets dealt out so that no two
 * turns, on either server, share one.
 */
export function writeTurns(
  kind: WriteKind,
  requests: WriteRequest[],
  turns: number,
): { medora: Scenario[]; twin: Scenario[] } {
  const share = Math.floor(requests.length / (2 * turns));
  if (share === 0)
    throw new Error(
      `${requests.length} targets for ${WRITES[kind].name} are too few for ${turns} turns on each server`,
    );
  const turn = (i: number) => writeScenario(kind, requests.slice(i * share, (i + 1) * share));
  return {
    medora: Array.from({ length: turns }, (_, i) => turn(2 * i)),
    twin: Array.from({ length: turns }, (_, i) => turn(2 * i + 1)),
  };
}

/** Correct passwords only: failed sign-ins would be throttled per address after a hundred. */
export function loginScenario(f: Fixtures): Scenario {
  return {
    name: 'POST /api/login',
    method: 'POST',
    path: '/api/login',
    expectStatus: 200,
    next: cycling(f.patients, (p) => ({
      method: 'POST',
      path: '/api/login',
      headers: json,
      body: JSON.stringify({ email: p.email, password: BENCH_PASSWORD }),
    })),
  };
}
