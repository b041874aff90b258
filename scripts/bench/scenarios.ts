import type { Request } from 'autocannon';
import { BENCH_PASSWORD, FIRST_NAMES, LAST_NAMES } from './dataset.ts';
import type { Fixtures } from './fixtures.ts';
import { consuming, cycling, nth, type Scenario } from './load.ts';

const json = { 'content-type': 'application/json' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** What an admin types into the patient search: surnames, first names, part of an e-mail; a few pages deep. */
export function patientSearches(perPage: number): string[] {
  const words = [...LAST_NAMES.slice(0, 12), ...FIRST_NAMES.slice(0, 8)].map((word) => word.toLowerCase());
  return words.flatMap((word, i) => [`q=${word}&page=1`, `q=${word.slice(0, 4)}&page=${1 + (i % 3)}`].map((q) => `${q}&per_page=${perPage}`));
}

/** The admin's patient table asks for 10 rows a page unless they pick more; the API's default is 50. */
const PATIENT_PAGE_SIZES = [
  { perPage: 10, label: '10 a page, as the admin screen asks' },
  { perPage: 50, label: '50 a page, the API default' },
];

/** GET /api/doctors as patients browse it. */
export function doctorsScenario(f: Fixtures): Scenario {
  return {
    name: 'GET /api/doctors',
    method: 'GET',
    path: '/api/doctors',
    expectStatus: 200,
    next: cycling(f.patients, (p) => ({ method: 'GET', path: '/api/doctors', headers: bearer(p.token) })),
  };
}

/** Every read endpoint the bench drives; each has a bare twin (twins.ts) that is driven with the same requests. */
export function readScenarios(f: Fixtures): Scenario[] {
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
    doctorsScenario(f),
    read('/api/appointments/available/{id}',
      cycling(doctorsAndPatients, (d) => ({ method: 'GET', path: `/api/appointments/available/${d.id}`, headers: bearer(d.token) }))),
    ...PATIENT_PAGE_SIZES.map(({ perPage, label }) =>
      read('/api/admin/patients?q=…',
        cycling(patientSearches(perPage), (query) => ({ method: 'GET', path: `/api/admin/patients?${query}`, headers: admin })), label)),
    read('/api/admin/statistics', cycling([admin], (headers) => ({ method: 'GET', path: '/api/admin/statistics', headers }))),
    read('/api/admin/top-doctor', cycling([admin], (headers) => ({ method: 'GET', path: '/api/admin/top-doctor', headers }))),
    read('/api/patient/billings',
      cycling(f.patients, (p) => ({ method: 'GET', path: '/api/patient/billings', headers: bearer(p.token) }))),
    read('/api/doctor/patients/{id}',
      cycling(f.doctorVisits, (v) => ({ method: 'GET', path: `/api/doctor/patients/${v.patientId}`, headers: bearer(v.token) }))),
  ];
}

/** Every request takes a different free slot, so each is a real booking that must succeed. */
export function bookingScenario(f: Fixtures): Scenario {
  return {
    name: 'POST /api/appointments/book',
    method: 'POST',
    path: '/api/appointments/book',
    expectStatus: 201,
    maxRequests: f.bookings.length,
    next: consuming(f.bookings, (b) => ({
      method: 'POST',
      path: '/api/appointments/book',
      headers: { ...json, ...bearer(b.token) },
      body: b.body,
    })),
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
