import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { DESK } from './desk.ts';

/** Doctors' leave, clinic closures, and the visits inside them for the desk to move. */
export function timeOffRoutes(app: App): Route[] {
  return [
    r('GET', '/api/admin/time-off', 'admin', async ({ query }) =>
      listOf('time_off', await app.scheduling.listTimeOff(query)),
    ),
    r('POST', '/api/admin/doctors/{id}/leave', 'admin', async ({ params, body, actor }) =>
      created(await app.scheduling.addLeave(params.id, body, actor)),
    ),
    r('POST', '/api/admin/closures', 'admin', async ({ body, actor }) =>
      created(await app.scheduling.addClosure(body, actor)),
    ),
    r('DELETE', '/api/admin/time-off/{id}', 'admin', async ({ params, actor }) =>
      ok(await app.scheduling.removeTimeOff(params.id, actor)),
    ),
    r('GET', '/api/appointments/to-move', DESK, async ({ query, actor }) =>
      listOf('appointments', await app.scheduling.visitsToMove(query, actor)),
    ),
  ];
}
