import {
  OutboundMessageShape,
  OutboundQuery,
  ReceivedMessageShape,
  ReceivedQuery,
  ReceiverRequestShape,
  ReceiverShape,
  ReceiverUpdateShape,
} from '../../../domain/interfaces/interfaces-shapes.ts';
import { listOf, ref } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';
import type { ModulePaths } from '../module-paths.ts';

/** The operations of src/http/routes/interfaces.ts. */
export const interfacesPaths: ModulePaths = {
  tag: 'Interfaces',
  description:
    'HL7 v2.5.1 over MLLP with the hospital’s other systems, for admins. A receiver takes the events it is configured for (ADT A01–A13, ' +
    'OML^O21): each message is queued in the transaction of its change and sent in order per receiver, counted as sent only on an AA; AR ' +
    'or too many failures make it a dead letter, which an admin resends. Messages received (ORU^R01 results, on HL7_LISTEN_PORT or by ' +
    '`medora hl7 import`) are kept with the acknowledgement they were answered with; results matching no order are the lab’s unmatched ' +
    'results (`/api/lab/unmatched`, for admins too).',
  schemas: {
    Hl7Receiver: ReceiverShape,
    Hl7OutboundMessage: OutboundMessageShape,
    Hl7ReceivedMessage: ReceivedMessageShape,
  },
  operations: {
    'GET /api/admin/hl7/receivers': {
      summary: 'List the receivers',
      description: 'By name, each with its queue depth (`queued`), its dead letters and when it last took a message.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('receivers', ref(ReceiverShape)) },
    },
    'POST /api/admin/hl7/receivers': {
      summary: 'Add a receiver',
      description:
        'Audited. Changes of the events it takes are queued for it from now on. A name another receiver has → 409 `name_taken`.',
      access: 'admin',
      body: ReceiverRequestShape,
      answers: { 201: ref(ReceiverShape) },
      errors: [409],
    },
    'PUT /api/admin/hl7/receivers/{id}': {
      summary: 'Change a receiver',
      description:
        'Audited; every field written. Messages queued already stay as built. `active: false` stops sending to it, ' +
        'its queue waiting; `true` resumes. A taken name → 409 `name_taken`.',
      access: 'admin',
      body: ReceiverUpdateShape,
      answers: { 200: ref(ReceiverShape) },
      errors: [409],
    },
    'POST /api/admin/hl7/receivers/{id}/deactivate': {
      summary: 'Deactivate a receiver',
      description: 'Audited. Nothing more is queued for it nor sent to it; what is queued is kept.',
      access: 'admin',
      answers: { 200: ref(ReceiverShape) },
    },
    'GET /api/admin/hl7/outbound': {
      summary: 'Messages sent and to send',
      description:
        'Newest first, each with its last acknowledgement (`ack_code`, `ack`) and error. `status=dead` lists the dead letters; ' +
        '`receiver_id` one receiver’s.',
      access: 'admin',
      query: OutboundQuery,
      answers: { 200: listOf('messages', ref(OutboundMessageShape)) },
    },
    'POST /api/admin/hl7/outbound/{id}/resend': {
      summary: 'Resend a dead letter',
      description:
        'Audited. Back in its receiver’s queue at its own place, with the same MSH-10: it goes before that receiver’s later messages ' +
        'still waiting. Only a dead one (409 `not_dead`).',
      access: 'admin',
      answers: { 200: ref(OutboundMessageShape) },
      errors: [409],
    },
    'GET /api/admin/hl7/received': {
      summary: 'Messages received',
      description:
        'Newest first, each with the acknowledgement it was answered with. `status=error` lists those refused (AE/AR), kept for review.',
      access: 'admin',
      query: ReceivedQuery,
      answers: { 200: listOf('messages', ref(ReceivedMessageShape)) },
    },
  },
};
