import type { App } from '../../app.ts';
import { created, listOf, noContent, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { WAITLIST_STAFF } from '../../domain/scheduling/waitlist.ts';

/** The waitlist: patients' entries and the offers a freed slot sends. */
export function waitlistRoutes(app: App): Route[] {
  return [
    r('GET', '/api/patient/waitlist', 'patient', async ({ query, actor }) =>
      listOf('entries', await app.waitlist.myWaitlist(query, actor)),
    ),
    r('POST', '/api/patient/waitlist', 'patient', async ({ body, actor }) =>
      created(await app.waitlist.joinWaitlist(body, actor)),
    ),
    r('DELETE', '/api/patient/waitlist/{id}', 'patient', async ({ params, actor }) => {
      await app.waitlist.leaveWaitlist(params.id, actor);
      return noContent();
    }),
    r('POST', '/api/waitlist', WAITLIST_STAFF, async ({ body, actor }) =>
      created(await app.waitlist.addToWaitlist(body, actor)),
    ),
    r('POST', '/api/waitlist-offers/preview', 'public', async ({ body }) => ok(await app.waitlist.previewOffer(body))),
    r('POST', '/api/waitlist-offers/accept', 'public', async ({ body }) => ok(await app.waitlist.acceptOffer(body))),
    r('POST', '/api/waitlist-offers/decline', 'public', async ({ body }) => ok(await app.waitlist.declineOffer(body))),
  ];
}
