import type { App } from '../../app.ts';
import { csvFile, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** The admin dashboard's statistics and the clinic-wide lists and exports. */
export function reportRoutes(app: App): Route[] {
  return [
    r('GET', '/api/admin/statistics', 'admin', async () => ok(await app.reports.statistics())),
    r('GET', '/api/admin/top-doctor', 'admin', async () => ok(await app.reports.topDoctor())),
    r('GET', '/api/admin/appointments-per-day', 'admin', async ({ query }) =>
      ok(await app.reports.appointmentsPerDay(query)),
    ),
    r('GET', '/api/admin/appointments', 'admin', async ({ query, actor }) =>
      listOf('appointments', await app.reports.listAllAppointments(query, actor)),
    ),
    r('GET', '/api/admin/appointments.csv', 'admin', async ({ query, actor }) =>
      csvFile(await app.reports.exportAppointmentsCsv(query, actor)),
    ),
    r('GET', '/api/admin/billings', 'admin', async ({ query, actor }) =>
      listOf('billings', await app.reports.listAllBillings(query, actor)),
    ),
    r('GET', '/api/admin/billings.csv', 'admin', async ({ query, actor }) =>
      csvFile(await app.reports.exportBillingsCsv(query, actor)),
    ),
  ];
}
