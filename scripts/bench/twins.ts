/**
 * The bare twins: one plain node:http server that answers each read endpoint of the bench (and each write, from
 * write-twins.ts) as a few lines of hand-written code would, so Medora's figure for an endpoint divided by its twin's is the cost of the framework
 * alone. A twin runs the very statements Medora runs — it calls the same adapters (src/db/*.pg.ts), so the SQL
 * cannot drift — on a pool of the same size, remembers sessions as Medora does (a Map with the same bound and
 * age), and answers the same JSON through the same domain mappers. What it leaves out is Medora's framework:
 * the route table, role checks, input validation, security headers, request ids and the access log.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { actorOf } from '../../src/domain/auth/auth.ts';
import { auditLog } from '../../src/db/audit.pg.ts';
import { sessionStore } from '../../src/db/auth.pg.ts';
import type { SessionLookup } from '../../src/domain/auth/ports.ts';
import { billStore } from '../../src/db/billing.pg.ts';
import { doctorStore } from '../../src/db/catalogue.pg.ts';
import type { Db } from '../../src/db/db.ts';
import { patientDirectory } from '../../src/db/patients.pg.ts';
import { doctorPatientStore, recordStore } from '../../src/db/records.pg.ts';
import { careTeam } from '../../src/db/care.pg.ts';
import { dashboardQueries } from '../../src/db/reports.pg.ts';
import { appointmentStore, scheduleStore } from '../../src/db/scheduling.pg.ts';
import { timeOffStore } from '../../src/db/time-off.pg.ts';
import { waitlistStore } from '../../src/db/waitlist.pg.ts';
import type { SessionUser } from '../../src/domain/auth/ports.ts';
import { listEntry } from '../../src/domain/audit/audit.ts';
import { billingJson } from '../../src/domain/billing/billing-answers.ts';
import { patientDetailJson } from '../../src/domain/records/records.ts';
import { statisticsOf, topDoctorJson } from '../../src/domain/reports/statistics.ts';
import {
  exportAppointmentsCsv,
  exportBillingsCsv,
  listAllAppointments,
  listAllBillings,
} from '../../src/domain/reports/use-cases.ts';
import { openSlots, periodOf, slotStatus } from '../../src/domain/scheduling/scheduling.ts';
import { heldFromOthers } from '../../src/domain/scheduling/waitlist.ts';
import { clinicDateTime, isoWeekday } from '../../src/domain/shared/clock.ts';
import { DEFAULT_PER_PAGE, type Page } from '../../src/domain/shared/pagination.ts';
import { bearerToken } from '../../src/http/parse.ts';
import { bearerTokens } from '../../src/security.ts';
import type { AppConfig } from '../../src/app.ts';
import { present } from '../../src/testing/assert.ts';
import { clinicalReadTwins } from './clinical-twins.ts';
import { writeTwins } from './write-twins.ts';

/** Medora's session cache keeps at most this many lookups, each for at most this long (src/db/session-cache.ts). */
export const SESSION_CACHE = { maxEntries: 10_000, maxAgeMs: 10_000 };

interface Ask {
  user: SessionUser;
  path: string;
  search: string;
  headers: IncomingHttpHeaders;
}
/** A JSON answer, or a CSV file's text. */
type Reply = { status: number; body: unknown } | { status: 200; csv: string };

/** The bare twin of every endpoint the bench drives, and `/api/health` for the bench to wait on. */
export function createTwinServer(db: Db, opts: { config: AppConfig; now?: () => Date }): Server {
  const now = opts.now ?? (() => new Date());
  const timeZone = opts.config.clinicTz;
  const sessions = rememberedSessions(sessionStore(db).findSession);
  const doctors = doctorStore(db);
  const schedules = scheduleStore(db);
  const timeOff = timeOffStore(db);
  const appointments = appointmentStore(db);
  const patients = patientDirectory(db);
  const dashboard = dashboardQueries(db);
  const bills = billStore(db);
  const treated = doctorPatientStore(db);
  const team = careTeam(db);
  const records = recordStore(db);
  const audit = auditLog(db);
  const waitlist = waitlistStore(db, bearerTokens);
  const reports = { dashboard, audit, clock: { now }, timeZone };
  let requests = 0;
  const writes = writeTwins(db, opts.config, { now });

  const firstPage = { q: '', page: 1, perPage: DEFAULT_PER_PAGE };
  const list = (name: string, page: Page<unknown>): Reply => ({
    status: 200,
    body: {
      [name]: page.items,
      total: page.total,
      total_is_lower_bound: page.totalIsLowerBound,
      page: page.page,
      per_page: page.perPage,
    },
  });
  const notFound: Reply = { status: 404, body: { message: 'Not found', code: 'not_found' } };

  const reads: { prefix: string; exact: boolean; answer: (ask: Ask) => Promise<Reply> }[] = [
    {
      prefix: '/api/doctors',
      exact: true,
      answer: async ({ search }) => {
        const perPage = new URLSearchParams(search).get('per_page');
        return list('doctors', await doctors.list(perPage ? { ...firstPage, perPage: Number(perPage) } : firstPage));
      },
    },
    {
      prefix: '/api/appointments/available/',
      exact: false,
      answer: async ({ user, path }) => {
        const doctorId = Number(path.slice('/api/appointments/available/'.length));
        const at = clinicDateTime(now(), timeZone);
        if (!(await schedules.isActiveDoctor(doctorId))) return notFound;
        const [slots, bookings, holds, away] = await Promise.all([
          schedules.currentSlots(doctorId, isoWeekday(at.date)),
          appointments.bookedTimes({ doctorId }, at.date),
          waitlist.holds(doctorId, at.date, at.date),
          timeOff.covering(doctorId, at.date, at.date),
        ]);
        const booked = [...bookings, ...heldFromOthers(holds, user.patientId ?? undefined)];
        const available_appointments = openSlots(slots, at.date, away).map((slot) => ({
          schedule_id: slot.id,
          start_time: slot.startTime,
          end_time: slot.endTime,
          status: slotStatus(slot, at.date, at, booked),
          period: periodOf(slot.startTime),
        }));
        return { status: 200, body: { date: at.date, available_appointments } };
      },
    },
    {
      prefix: '/api/admin/patients',
      exact: true,
      answer: async ({ user, search }) => {
        const query = new URLSearchParams(search);
        const page = {
          q: query.get('q') ?? '',
          page: Number(query.get('page') ?? 1),
          perPage: Number(query.get('per_page') ?? DEFAULT_PER_PAGE),
        };
        const found = await patients.list(page);
        // Medora audits every page of the patient list it hands out; the twin writes the same row.
        await audit.record(listEntry(actorOf(user, `twin-${++requests}`), 'patient', page));
        return list('patients', found);
      },
    },
    {
      prefix: '/api/admin/statistics',
      exact: true,
      answer: async () => ({ status: 200, body: statisticsOf(await dashboard.counts()) }),
    },
    {
      prefix: '/api/admin/top-doctor',
      exact: true,
      answer: async () => ({ status: 200, body: topDoctorJson(await dashboard.topDoctor()) }),
    },
    {
      prefix: '/api/patient/billings',
      exact: true,
      answer: async ({ user }) => {
        const page = await bills.listForPatient(present(user.patientId, 'patient id'), firstPage);
        return list('billings', { ...page, items: page.items.map(billingJson) });
      },
    },
    {
      prefix: '/api/doctor/patients/',
      exact: false,
      answer: async ({ user, path }) => {
        const patientId = Number(path.slice('/api/doctor/patients/'.length));
        if (!(await team.reach(present(user.doctorId, 'doctor id'), [patientId], new Date())).has(patientId))
          return notFound;
        const patient = await treated.find(patientId);
        if (!patient) return notFound;
        const history = await records.listForPatient(patientId);
        const actor = actorOf(user, `twin-${++requests}`);
        await audit.record({ actor, action: 'read_records', entity: 'patient', entityId: patientId, patientId });
        return { status: 200, body: patientDetailJson(patient, history) };
      },
    },
  ];

  // The admin's filtered lists and their exports: the same use cases, audited alike, without the framework around them.
  const adminList = (
    prefix: string,
    answer: (query: Record<string, string>, actor: ReturnType<typeof actorOf>) => Promise<Reply>,
  ) => ({
    prefix,
    exact: true,
    answer: ({ user, search }: Ask) =>
      answer(Object.fromEntries(new URLSearchParams(search)), actorOf(user, `twin-${++requests}`)),
  });
  reads.push(
    adminList('/api/admin/appointments', async (query, actor) =>
      list('appointments', await listAllAppointments(reports, query, actor)),
    ),
    adminList('/api/admin/billings', async (query, actor) =>
      list('billings', await listAllBillings(reports, query, actor)),
    ),
    adminList('/api/admin/appointments.csv', async (query, actor) => ({
      status: 200,
      csv: (await exportAppointmentsCsv(reports, query, actor)).csv,
    })),
    adminList('/api/admin/billings.csv', async (query, actor) => ({
      status: 200,
      csv: (await exportBillingsCsv(reports, query, actor)).csv,
    })),
  );

  // The clinical reads (clinical-twins.ts): their use cases called as Medora's routes call them.
  for (const { prefix, exact, answer } of clinicalReadTwins(db, opts.config, { now }))
    reads.push({
      prefix,
      exact,
      answer: ({ user, ...ask }) => answer({ ...ask, actor: actorOf(user, `twin-${++requests}`) }),
    });

  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const answer = (reply: Reply) => {
      const [type, payload] =
        'csv' in reply
          ? ['text/csv; charset=utf-8', Buffer.from(reply.csv)]
          : [
              req.url?.startsWith('/fhir/')
                ? 'application/fhir+json; charset=utf-8'
                : 'application/json; charset=utf-8',
              Buffer.from(JSON.stringify(reply.body)),
            ];
      res.writeHead(reply.status, { 'content-type': type, 'content-length': payload.length });
      res.end(payload);
    };
    try {
      const url = req.url ?? '/';
      const at = url.indexOf('?');
      const path = at < 0 ? url : url.slice(0, at);
      const search = at < 0 ? '' : url.slice(at + 1);
      if (path === '/api/health') return answer({ status: 200, body: { status: 'ok' } });
      const write =
        req.method === 'POST' ? writes.map((w) => ({ w, match: w.path.exec(path) })).find((m) => m.match) : undefined;
      const read = write ? undefined : reads.find((r) => (r.exact ? path === r.prefix : path.startsWith(r.prefix)));
      if (!write && !read) return answer(notFound);
      const token = bearerToken(req.headers.authorization);
      const user = token && (await sessions(bearerTokens.digest(token), now()));
      if (!user) return answer({ status: 401, body: { message: 'Please sign in', code: 'unauthenticated' } });
      if (write) {
        const body: unknown = JSON.parse((await bodyOf(req)) || '{}');
        return answer(
          await write.w.answer({ user, id: Number(write.match?.[1]), body, requestId: `twin-${++requests}` }),
        );
      }
      if (read) answer(await read.answer({ user, path, search, headers: req.headers }));
    } catch (error) {
      console.error(error);
      answer({ status: 500, body: { message: 'Internal error', code: 'internal' } });
    }
  });
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Session lookups remembered in a Map of the cache's bound, oldest dropped first, each trusted for the cache's age. */
function rememberedSessions(find: (tokenHash: string, now: Date) => Promise<SessionLookup | undefined>) {
  const remembered = new Map<string, SessionLookup & { cachedAt: number }>();
  return async (tokenHash: string, now: Date): Promise<SessionUser | undefined> => {
    const entry = remembered.get(tokenHash);
    if (entry && entry.expiresAt > now && now.getTime() - entry.cachedAt < SESSION_CACHE.maxAgeMs) return entry.user;
    remembered.delete(tokenHash);
    const lookup = await find(tokenHash, now);
    if (lookup) {
      const oldest = remembered.keys().next().value;
      if (remembered.size >= SESSION_CACHE.maxEntries && oldest !== undefined) remembered.delete(oldest);
      remembered.set(tokenHash, { ...lookup, cachedAt: now.getTime() });
    }
    return lookup?.user;
  };
}
