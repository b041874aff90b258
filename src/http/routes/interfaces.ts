import type { App } from '../../app.ts';
import { created, listOf, ok } from '../answers.ts';
import { route as r, type Route } from '../router.ts';

/** The HL7 interfaces (issue 51): the receivers an admin configures and the messages each way. */
export function interfacesRoutes(app: App): Route[] {
  const hl7 = app.interfaces;
  return [
    r('GET', '/api/admin/hl7/receivers', 'admin', async ({ query, actor }) =>
      listOf('receivers', await hl7.listReceivers(query, actor)),
    ),
    r('POST', '/api/admin/hl7/receivers', 'admin', async ({ body, actor }) =>
      created(await hl7.createReceiver(body, actor)),
    ),
    r('PUT', '/api/admin/hl7/receivers/{id}', 'admin', async ({ params, body, actor }) =>
      ok(await hl7.updateReceiver(params.id, body, actor)),
    ),
    r('POST', '/api/admin/hl7/receivers/{id}/deactivate', 'admin', async ({ params, actor }) =>
      ok(await hl7.deactivateReceiver(params.id, actor)),
    ),
    r('GET', '/api/admin/hl7/outbound', 'admin', async ({ query, actor }) =>
      listOf('messages', await hl7.outboundMessages(query, actor)),
    ),
    r('POST', '/api/admin/hl7/outbound/{id}/resend', 'admin', async ({ params, actor }) =>
      ok(await hl7.resendMessage(params.id, actor)),
    ),
    r('GET', '/api/admin/hl7/received', 'admin', async ({ query, actor }) =>
      listOf('messages', await hl7.receivedMessages(query, actor)),
    ),
  ];
}
