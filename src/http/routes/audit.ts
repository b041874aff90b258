import type { App } from '../../app.ts';
import { csvFile, listOf } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** The audit trail, for admins. */
export function auditRoutes(app: App): Route[] {
  return [
    r('GET', '/api/admin/audit', 'admin', async ({ query, actor }) =>
      listOf('entries', await app.audit.listAuditEntries(query, actor)),
    ),
    r('GET', '/api/admin/audit.csv', 'admin', async ({ query, actor }) =>
      csvFile(await app.audit.exportAuditCsv(query, actor)),
    ),
  ];
}
