import type { App } from '../../app.ts';
import { created, listOf, noContent, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';
import { calendarFeedLink } from '../../links.ts';
import { linkOrigin } from '../link-origin.ts';

/** Notifications: private calendar feeds and the admin's list of messages sent. */
export function notificationRoutes(app: App, { publicUrl }: { publicUrl?: string }): Route[] {
  const origin = (https: boolean, headers: { host?: string }) => linkOrigin(publicUrl, https, headers.host);
  return [
    r('GET', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor }) =>
      ok(await app.calendarFeeds.calendarFeedStatus(actor)),
    ),
    r('POST', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor, https, headers }) => {
      const feed = await app.calendarFeeds.makeCalendarFeed(actor);
      return created({ url: calendarFeedLink(origin(https, headers), feed.token), created_at: feed.created_at });
    }),
    r('DELETE', '/api/user/calendar-feed', ['doctor', 'patient'], async ({ actor }) => {
      await app.calendarFeeds.turnOffCalendarFeed(actor);
      return noContent();
    }),
    r('GET', '/api/calendar/{token}.ics', 'public', async ({ params, requestId }) => {
      const feed = await app.calendarFeeds.calendarFeed(params.token, requestId);
      return {
        body: Buffer.from(feed),
        headers: { 'content-type': 'text/calendar; charset=utf-8', 'cache-control': 'private, no-cache' },
      };
    }),
    r('GET', '/api/admin/messages', 'admin', async ({ query, actor }) =>
      listOf('messages', await app.notifications.listMessages(query, actor)),
    ),
  ];
}
