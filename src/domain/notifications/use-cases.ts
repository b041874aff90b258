import { requireAdmin, type Actor } from '../shared/actor.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { readInput } from '../shared/read-fields.ts';
import { asRecord } from '../shared/validate.ts';
import { LINK_PLACEHOLDER } from './message.ts';
import { MessagesQuery, type MessageJson } from './notifications-shapes.ts';
import type { MessageLog, MessageRow } from './ports.ts';

const messageJson = (m: MessageRow): MessageJson => ({
  id: m.id,
  kind: m.kind,
  recipient: m.recipient,
  subject: m.subject,
  status: m.status,
  attempts: m.attempts,
  send_after: m.sendAfter.toISOString(),
  last_error: m.lastError,
  sent_at: m.sentAt?.toISOString() ?? null,
  created_at: m.createdAt.toISOString(),
  // The stored body holds the placeholder, never the token: the screen says what goes there.
  body: m.text.replaceAll(LINK_PLACEHOLDER, '[a one-time link, filled in when sent]'),
  attachments: m.attachments,
});

/** Every message the clinic sent or would send, newest first: the admin's Messages screen. */
export async function listMessages(
  deps: { messages: MessageLog },
  query: unknown,
  actor: Actor,
): Promise<Page<MessageJson>> {
  requireAdmin(actor);
  const input = asRecord(query);
  const { status } = readInput(MessagesQuery, input);
  const request = pageRequest(input);
  const page = await deps.messages.list({ status, q: request.q }, request);
  return { ...page, items: page.items.map(messageJson) };
}
