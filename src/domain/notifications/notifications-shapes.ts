import {
  array,
  boolean,
  component,
  dateTime,
  id,
  integer,
  nullable,
  object,
  oneOfValues,
  queryOf,
  string,
  type Static,
} from '../shared/wire-schema.ts';
import { MESSAGE_KINDS } from './message.ts';
import { MESSAGE_STATUSES } from './ports.ts';

// The notifications' queries and answers, written once (docs/architecture.md "The wire contract").

export const OutboxMessageShape = component(
  'OutboxMessage',
  object({
    id: id(),
    kind: oneOfValues(MESSAGE_KINDS),
    recipient: string(),
    subject: string(),
    status: oneOfValues(MESSAGE_STATUSES),
    attempts: integer({ minimum: 0 }),
    send_after: dateTime(),
    last_error: nullable(string()),
    sent_at: nullable(dateTime()),
    created_at: dateTime(),
    body: string({ description: 'The plain-text body; a one-time link shows as a placeholder' }),
    attachments: array(string(), { description: "The attachments' file names" }),
  }),
);
export type MessageJson = Static<typeof OutboxMessageShape>;

/** The messages' filter, beside the page parameters. */
export const MessagesQuery = queryOf({ status: oneOfValues(MESSAGE_STATUSES) });

/** Whether the caller has a calendar feed, and since when; the address itself is shown only when it is made. */
export const CalendarFeedShape = object({ active: boolean(), created_at: nullable(dateTime()) });
export type CalendarFeedJson = Static<typeof CalendarFeedShape>;

export const NewCalendarFeedShape = object({ url: string({ format: 'uri' }), created_at: dateTime() });
