import { Hl7Message } from '@medplum/core';
import { Hl7Client } from '@medplum/hl7';
import type { Db } from '../db/db.ts';
import type { Actor } from '../domain/shared/actor.ts';
import { only, present } from './assert.ts';

/** A ward written straight into the tables: a department, a doctor, a lab user, a patient admitted to a bed. */
export interface Ward {
  patientId: number;
  admissionId: number;
  bedIds: [number, number];
  doctor: Actor;
  labUser: Actor;
}

export async function ward(db: Db, name = 'Medicine'): Promise<Ward> {
  const row = only(
    await db.query<{ ids: number[] }>(
      `with dept as (insert into departments (name) values ($1) returning id),
            pu as (insert into users (name, password_hash, role) values ('Pia Patient', 'x', 'patient') returning id),
            p as (insert into patients (user_id, gender, birthdate, phone)
                  select id, 'female', '1980-05-01', '+1 555 0100' from pu returning id),
            du as (insert into users (name, email, password_hash, role)
                   values ('Dr Doe', $1 || '.doe@example.test', 'x', 'doctor') returning id),
            doc as (insert into doctors (user_id, department_id) select du.id, dept.id from du, dept returning id, user_id),
            lu as (insert into users (name, email, password_hash, role)
                   values ('Lee Lab', $1 || '.lee@example.test', 'x', 'lab') returning id),
            room as (insert into rooms (name, department_id) select $1 || ' 101', id from dept returning id),
            adm as (insert into admissions (patient_id, department_id, requested_by, expected_nights, reason, requested_at)
                    select p.id, dept.id, (select id from doc), 2, 'Observation', now() from p, dept returning id)
       select array[(select id from p), (select id from adm), (select user_id from doc), (select id from doc),
                    (select id from lu), (select id from room)] as ids`,
      [name],
    ),
  );
  const [patientId, admissionId, doctorUser, doctorId, lab, roomId] = row.ids.map(Number) as number[];
  const beds = await db.query<{ id: number }>(
    `insert into beds (room_id, label) values ($1, 'A'), ($1, 'B') returning id`,
    [present(roomId)],
  );
  return {
    patientId: present(patientId),
    admissionId: present(admissionId),
    bedIds: [present(beds[0]).id, present(beds[1]).id],
    doctor: { userId: present(doctorUser), role: 'doctor', name: 'Dr Doe', doctorId: present(doctorId) },
    labUser: { userId: present(lab), role: 'lab', name: 'Lee Lab' },
  };
}

/** Sends each message over MLLP with @medplum/hl7's client and answers the acknowledgements. */
export async function sendOverMllp(port: number, messages: string[]): Promise<Hl7Message[]> {
  const client = new Hl7Client({ host: '127.0.0.1', port, connectTimeout: 10_000 });
  try {
    const acks: Hl7Message[] = [];
    for (const text of messages) acks.push(await client.sendAndWait(Hl7Message.parse(text), { timeoutMs: 60_000 }));
    return acks;
  } finally {
    await client.close();
  }
}

/** An ORU^R01 as a lab analyser sends it: one order (OBR-2 its placer number) and its results. */
export function oru(
  controlId: string,
  placer: string,
  results: { code: string; type?: string; value: string; unit?: string; status?: string }[],
  { obr25 = 'F', sender = 'ANALYSER|LAB' } = {},
): string {
  return [
    `MSH|^~\\&|${sender}|MEDORA|CLINIC|20260504103000+0000||ORU^R01^ORU_R01|${controlId}|P|2.5.1`,
    'PID|1||123^^^MEDORA^MR||Patient^Pia',
    `ORC|RE|${placer}`,
    `OBR|1|${placer}|F-${controlId}|24323-8^Metabolic panel^LN|||20260504100000+0000|||||||||||||||20260504103000+0000|||${obr25}`,
    ...results.map(
      (r, i) =>
        `OBX|${i + 1}|${r.type ?? 'NM'}|${r.code}^^LN||${r.value}|${r.unit ?? ''}|||||${r.status ?? 'F'}|||20260504101500+0000`,
    ),
  ].join('\r');
}
