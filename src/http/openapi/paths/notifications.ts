import type { ModulePaths } from '../module-paths.ts';
import {
  CalendarFeedShape,
  MessagesQuery,
  NewCalendarFeedShape,
  OutboxMessageShape,
} from '../../../domain/notifications/notifications-shapes.ts';
import { listOf, propertiesOf, ref, string } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

/** The operations of src/http/routes/notifications.ts. */
export const notificationsPaths: ModulePaths = {
  tag: 'Notifications',
  description:
    'Private calendar feeds and the messages the clinic sends. A doctor or a patient makes a private iCalendar address of their visits for a calendar ' +
    'application to subscribe to; making a new one, or turning it off, ends the old address. Admins read every e-mail sent or due (`/api/admin/messages`), ' +
    "never a link's token.",
  schemas: {
    OutboxMessage: OutboxMessageShape,
  },
  operations: {
    'GET /api/user/calendar-feed': {
      summary: 'Whether I have a calendar feed',
      description: 'Doctors and patients. The address itself is shown only when it is made.',
      access: ['doctor', 'patient'],
      answers: { 200: CalendarFeedShape },
    },
    'POST /api/user/calendar-feed': {
      summary: 'Make a new calendar feed address',
      description:
        "Doctors and patients; audited. A new private address for the caller's calendar; the one they had stops working. Keep it secret: it opens the calendar without signing in. " +
        "Without `PUBLIC_URL` set, a request that does not come to the server's own loopback address is refused with 409 `public_url_unset`.",
      access: ['doctor', 'patient'],
      answers: { 201: NewCalendarFeedShape },
      errors: [400, 409, 413],
    },
    'DELETE /api/user/calendar-feed': {
      summary: 'Turn my calendar feed off',
      description:
        'Doctors and patients; audited. The address stops working; turning off a feed that is off changes nothing.',
      access: ['doctor', 'patient'],
      answers: { 204: null },
    },
    'GET /api/calendar/{token}.ics': {
      summary: 'A calendar feed',
      description:
        "Public: the private address a calendar application subscribes to; the read is audited as its owner's. An unknown or revoked token → 404. " +
        '`Cache-Control: private, no-cache` with an `ETag`; `If-None-Match` with it answers 304 while its visits are unchanged.',
      access: 'public',
      params: { token: string({ pattern: '^[A-Za-z0-9_-]+$', description: "The feed's secret token" }) },
      headers: { 'If-None-Match': string({ description: 'An ETag this feed was answered with' }) },
      answers: {
        200: { description: 'The iCalendar feed', content: { 'text/calendar': string() }, headers: { ETag: string() } },
        304: null,
      },
    },
    'GET /api/admin/messages': {
      summary: 'Messages sent or due',
      description:
        'Admins only. Every e-mail the clinic sent or will send, newest first; `q` searches recipient and subject, `status` filters.',
      access: 'admin',
      query: { ...pageQuery, ...propertiesOf(MessagesQuery) },
      answers: { 200: listOf('messages', ref('OutboxMessage')) },
    },
  },
};
