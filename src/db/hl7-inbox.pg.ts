import type { Hl7Inbox } from '../domain/interfaces/ports.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';

export const INTERFACE_ACCOUNT = 'hl7-interface@medora.invalid';

/** The received messages (migration 0050's hl7_received) and the results among them that matched no order. */
export function hl7Inbox(db: Queryable): Hl7Inbox {
  return {
    claim: async (m) => {
      const [row] = await db.query<{ id: string | number }>(
        `insert into hl7_received (source, control_id, message_type, message, status, ack_code, ack, error, received_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict (source, control_id) do nothing returning id`,
        [m.source, m.controlId, m.messageType, m.message, m.status, m.ackCode, m.ack, m.error, m.receivedAt],
      );
      return row && Number(row.id);
    },
    finish: async (id, o) => {
      await db.query(`update hl7_received set status = $2, ack_code = $3, ack = $4, error = $5 where id = $1`, [
        id,
        o.status,
        o.ackCode,
        o.ack,
        o.error,
      ]);
    },
    ackOf: async (source, controlId) => {
      const [row] = await db.query<{ ack: string }>(
        `select ack from hl7_received where source = $1 and control_id = $2`,
        [source, controlId],
      );
      return row?.ack;
    },
    // Made with the first message received, not by a migration: a clinic without HL7 has no such user, and a new
    // clinic's first account is still its first user (the demo seed and `medora move-to` look for an empty clinic).
    interfaceUser: async () => {
      await db.query(
        `insert into users (name, email, password_hash, role, active, email_verified_at)
         values ('HL7 interface', $1, '!', 'lab', false, now()) on conflict do nothing`,
        [INTERFACE_ACCOUNT],
      );
      return onlyRow(
        await db.query<{ id: number }>(`select id from users where lower(email) = $1`, [INTERFACE_ACCOUNT]),
        'The HL7 interface account',
      ).id;
    },
    addUnmatched: async (r) => {
      const v = r.value;
      await db.query(
        `insert into lab_unmatched_results (source, message_id, order_number, code_system, code, value_type,
           value_quantity, value_unit, value_code, value_text, effective_at, received_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (source, message_id) do nothing`,
        [
          r.source,
          r.messageId,
          r.orderNumber,
          r.codeSystem,
          r.code,
          v.type,
          v.type === 'quantity' ? v.value : null,
          v.type === 'quantity' ? v.unit : null,
          v.type === 'coded' ? v.code : null,
          v.type === 'text' ? v.text : null,
          r.effectiveAt,
          r.receivedAt,
        ],
      );
    },
  };
}
