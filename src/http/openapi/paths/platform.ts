import type { ModulePaths } from '../module-paths.ts';
import { object, oneOfValues, ref, string } from '../schema.ts';

const ready = object({ status: oneOfValues(['ok']), database: oneOfValues(['ok']) });

const readiness = {
  access: 'public',
  answers: {
    200: ready,
    // The probe's own 503, in place of the API's error body: app.health.ready() answers false, it never throws.
    503: {
      description: 'The database did not answer within a second (`Retry-After`)',
      content: {
        'application/json': object({ status: oneOfValues(['degraded']), database: oneOfValues(['unavailable']) }),
      },
      headers: { 'Retry-After': string({ pattern: '^[0-9]+$' }) },
    },
  },
} as const;

/** The operations of src/http/routes/platform.ts. */
export const platformPaths: ModulePaths = {
  tag: 'Platform',
  description:
    'Health probes for a load balancer or orchestrator: liveness (the process answers) and readiness (the database answers ' +
    "within a second), public and never cached; and the clinic's settings the UI formats with. None touches patient data.",
  schemas: {
    Clinic: object({
      name: string(),
      time_zone: string(),
      locale: string({ description: 'BCP 47, as Intl spells it: en-US, en-GB, de-DE' }),
    }),
  },
  operations: {
    'GET /api/health/live': {
      summary: 'Liveness probe',
      description: 'Answers `{"status": "ok"}` while the process serves requests; it does not touch the database.',
      access: 'public',
      answers: { 200: object({ status: oneOfValues(['ok']) }) },
    },
    'GET /api/health/ready': {
      summary: 'Readiness probe',
      description:
        'Answers `{"status": "ok", "database": "ok"}` when the database answers within a second, outside the request pool; ' +
        'otherwise 503 `{"status": "degraded", "database": "unavailable"}` with `Retry-After` (not the API\'s error body).',
      ...readiness,
      answers: { ...readiness.answers },
    },
    'GET /api/clinic': {
      summary: "The clinic's settings",
      description:
        "The clinic's name, its IANA time zone (`CLINIC_TZ`) and the BCP 47 locale its dates and times are written in " +
        '(`CLINIC_LOCALE`, default `en-US`): every page of the UI, signed in or not, formats with them.',
      access: 'public',
      answers: { 200: ref('Clinic') },
    },
    'GET /api/health': {
      summary: 'Readiness probe (alias)',
      description: 'The same as `GET /api/health/ready`.',
      ...readiness,
      answers: { ...readiness.answers },
    },
  },
};
