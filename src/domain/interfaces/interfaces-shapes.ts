import { PageQuery } from '../shared/pagination.ts';
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
  propertiesOf,
  queryOf,
  type Static,
  string,
  text,
} from '../shared/wire-schema.ts';
import { HL7_EVENTS } from '../notifications/hl7-events.ts';

// The HL7 interfaces' requests and answers, written once (docs/architecture.md "The wire contract").

const events = array(oneOfValues(HL7_EVENTS), {
  minItems: 1,
  maxItems: HL7_EVENTS.length,
  uniqueItems: true,
  description: 'The events the receiver takes: A01 admit … A13 cancel a discharge, O21 lab orders',
});

const receiverFields = {
  name: text(100, { rule: 'line', description: 'Unique; sent as MSH-5, the receiving application' }),
  host: text(255, { rule: 'line', description: 'Where its MLLP listener is' }),
  port: integer({ minimum: 1, maximum: 65535 }),
  events,
};

export const ReceiverRequestShape = object(receiverFields);

export const ReceiverUpdateShape = object({
  ...receiverFields,
  active: boolean({ description: 'False stops sending to it, its queue waiting; true resumes' }),
});

export const OUTBOUND_STATUSES = ['pending', 'sending', 'sent', 'dead'] as const;
export const RECEIVED_STATUSES = ['processed', 'unmatched', 'error'] as const;
const ACK_CODES = ['AA', 'AE', 'AR', 'CA', 'CE', 'CR'] as const;

export const ReceiverShape = component(
  'Hl7Receiver',
  object({
    id: id(),
    name: string(),
    host: string(),
    port: integer({ minimum: 1, maximum: 65535 }),
    events: array(oneOfValues(HL7_EVENTS)),
    active: boolean(),
    created_at: dateTime(),
    queued: integer({ minimum: 0, description: 'Messages waiting or being sent: the queue depth' }),
    dead: integer({ minimum: 0, description: 'Messages given up on, to resend' }),
    last_sent_at: nullable(dateTime()),
  }),
);
export type ReceiverJson = Static<typeof ReceiverShape>;

export const OutboundMessageShape = component(
  'Hl7OutboundMessage',
  object({
    id: id(),
    receiver_id: id(),
    receiver: string(),
    event: oneOfValues(HL7_EVENTS),
    control_id: string({ description: 'MSH-10, the same on every attempt' }),
    patient_id: nullable(id()),
    status: oneOfValues(OUTBOUND_STATUSES),
    attempts: integer({ minimum: 0 }),
    ack_code: nullable(oneOfValues(ACK_CODES)),
    ack: nullable(string({ description: 'The last acknowledgement, as received' })),
    last_error: nullable(string()),
    message: string(),
    created_at: dateTime(),
    sent_at: nullable(dateTime()),
  }),
);
export type OutboundMessageJson = Static<typeof OutboundMessageShape>;

export const ReceivedMessageShape = component(
  'Hl7ReceivedMessage',
  object({
    id: id(),
    source: string({ description: 'MSH-3^MSH-4, the sending application and facility' }),
    control_id: nullable(string()),
    message_type: string(),
    status: oneOfValues(RECEIVED_STATUSES),
    ack_code: oneOfValues(['AA', 'AE', 'AR'] as const),
    ack: string({ description: 'The acknowledgement it was answered with' }),
    error: nullable(string()),
    message: string(),
    received_at: dateTime(),
  }),
);
export type ReceivedMessageJson = Static<typeof ReceivedMessageShape>;

export const OutboundQuery = queryOf({
  ...propertiesOf(PageQuery),
  receiver_id: id('Only this receiver’s'),
  status: oneOfValues(OUTBOUND_STATUSES, 'Only these: `dead` lists the dead letters'),
});

export const ReceivedQuery = queryOf({
  ...propertiesOf(PageQuery),
  status: oneOfValues(RECEIVED_STATUSES, 'Only these: `error` lists those refused'),
});
