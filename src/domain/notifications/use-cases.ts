import { requireAdmin, type Actor } from '../shared/actor.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { LINK_PLACEHOLDER } from './message.ts';
import { MESSAGE_STATUSES, type MessageLog, type MessageRow } from './ports.ts';

export interface MessageJson {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  status: string;
  attempts: number;
  send_after: string;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
  body: string;
  attachments: string[];
}

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
  const v = new Validator(input);
  const status = v.oneOf('status', MESSAGE_STATUSES, { optional: true });
  const q = v.text('q', { optional: true, max: 200 });
  v.done();
  const page = await deps.messages.list({ status, q }, pageRequest(input));
  return { ...page, items: page.items.map(messageJson) };
}
