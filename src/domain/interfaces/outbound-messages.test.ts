import assert from 'node:assert/strict';
import { Hl7Message } from '@medplum/core';
import { describe, it } from '../../testing/node-test.ts';
import { at } from '../../testing/assert.ts';
import { adtMessage, omlMessage, type Header, type PatientFacts, type StayFacts } from './outbound-messages.ts';

const header: Header = {
  facility: 'Medora | General',
  receiver: 'RIS',
  controlId: 'MED42',
  at: new Date('2026-05-04T10:30:05Z'),
};
const patient: PatientFacts = {
  id: 7,
  name: 'Ana María de la Cruz',
  birthDate: '1990-02-03',
  gender: 'female',
  phone: '+1 555 0142',
};
const stay: StayFacts = {
  admissionId: 31,
  location: { ward: 'Medicine', room: 'M-101', bed: 'B' },
  priorLocation: { ward: 'Surgery', room: 'S^2', bed: 'A' },
  attending: { id: 5, name: 'Dr Grey' },
  admittedAt: new Date('2026-05-03T22:00:00Z'),
  dischargedAt: null,
};

const seg = (m: Hl7Message, name: string, n = 0) => at(m.getAllSegments(name), n);

describe('the HL7 messages Medora sends', () => {
  it('builds an ADT whose header, PID and PV1 the library reads back field by field, text escaped', () => {
    const m = Hl7Message.parse(adtMessage(header, 'A02', patient, stay));
    assert.deepEqual(
      [3, 4, 5, 7, 9, 10, 11, 12].map((f) => m.header.getField(f)?.toString()),
      ['MEDORA', 'Medora \\F\\ General', 'RIS', '20260504103005+0000', 'ADT^A02^ADT_A02', 'MED42', 'P', '2.5.1'],
    );
    assert.deepEqual(
      [seg(m, 'EVN').getField(1)?.toString(), seg(m, 'EVN').getField(2)?.toString()],
      ['A02', '20260504103005+0000'],
    );
    const pid = seg(m, 'PID');
    assert.deepEqual(
      [
        pid.getComponent(3, 1),
        pid.getComponent(3, 4),
        pid.getComponent(3, 5),
        pid.getComponent(5, 1),
        pid.getComponent(5, 2),
        pid.getField(7)?.toString(),
        pid.getField(8)?.toString(),
        pid.getField(13)?.toString(),
      ],
      ['7', 'MEDORA', 'MR', 'Cruz', 'Ana María de la', '19900203', 'F', '+1 555 0142'],
    );
    const pv1 = seg(m, 'PV1');
    assert.deepEqual(
      [
        pv1.getField(2)?.toString(),
        pv1.getComponent(3, 1),
        pv1.getComponent(3, 2),
        pv1.getComponent(3, 3),
        pv1.getField(6)?.toString(),
        pv1.getComponent(7, 1),
        pv1.getComponent(7, 2),
        pv1.getField(19)?.toString(),
        pv1.getField(44)?.toString(),
        pv1.getField(45)?.toString(),
      ],
      ['I', 'Medicine', 'M-101', 'B', 'Surgery^S\\S\\2^A', '5', 'Grey', '31', '20260503220000+0000', ''],
    );
  });

  it('uses the structure HL7 assigns each event, and an outpatient PV1 with no stay', () => {
    const structures = (['A01', 'A03', 'A04', 'A08', 'A11', 'A13'] as const).map((e) =>
      Hl7Message.parse(adtMessage(header, e, patient, e === 'A04' || e === 'A08' ? null : stay))
        .header.getField(9)
        ?.toString(),
    );
    assert.deepEqual(structures, [
      'ADT^A01^ADT_A01',
      'ADT^A03^ADT_A03',
      'ADT^A04^ADT_A01',
      'ADT^A08^ADT_A01',
      'ADT^A11^ADT_A09',
      'ADT^A13^ADT_A01',
    ]);
    const registered = Hl7Message.parse(
      adtMessage(header, 'A04', { ...patient, birthDate: null, gender: null, name: 'Cher' }, null),
    );
    const pid = seg(registered, 'PID');
    assert.deepEqual(
      [pid.getComponent(5, 1), pid.getComponent(5, 2), pid.getField(7)?.toString(), pid.getField(8)?.toString()],
      ['Cher', '', '', 'U'],
    );
    assert.deepEqual(
      [seg(registered, 'PV1').getField(2)?.toString(), seg(registered, 'PV1').getField(3)?.toString()],
      ['O', ''],
    );
  });

  it('builds OML^O21 with an ORC, TQ1 and OBR per test, each carrying the order number whole', () => {
    const order = {
      orderNumber: '11545596-0175',
      control: 'NW' as const,
      priority: 'stat' as const,
      orderedAt: new Date('2026-05-04T09:00:00Z'),
      doctor: { id: 5, name: 'Dr Grey' },
      tests: [
        { code: '2823-3', codeSystem: 'loinc' as const, name: 'Potassium' },
        { code: 'IMG-XR', codeSystem: 'local' as const, name: 'Chest X-ray' },
      ],
    };
    const m = Hl7Message.parse(omlMessage(header, patient, null, order));
    assert.equal(m.header.getField(9)?.toString(), 'OML^O21^OML_O21');
    assert.deepEqual(
      [0, 1].map((i) => [
        seg(m, 'ORC', i).getField(1)?.toString(),
        seg(m, 'ORC', i).getComponent(2, 1),
        seg(m, 'ORC', i).getComponent(2, 2),
        seg(m, 'ORC', i).getField(9)?.toString(),
        seg(m, 'ORC', i).getComponent(12, 1),
        seg(m, 'TQ1', i).getField(9)?.toString(),
        seg(m, 'OBR', i).getField(1)?.toString(),
        seg(m, 'OBR', i).getComponent(2, 1),
        seg(m, 'OBR', i).getField(4)?.toString(),
        seg(m, 'OBR', i).getComponent(16, 2),
      ]),
      [
        [
          'NW',
          '11545596-0175',
          'MEDORA',
          '20260504090000+0000',
          '5',
          'S',
          '1',
          '11545596-0175',
          '2823-3^Potassium^LN',
          'Grey',
        ],
        [
          'NW',
          '11545596-0175',
          'MEDORA',
          '20260504090000+0000',
          '5',
          'S',
          '2',
          '11545596-0175',
          'IMG-XR^Chest X-ray^L',
          'Grey',
        ],
      ],
    );
    const cancelled = Hl7Message.parse(
      omlMessage(header, patient, stay, { ...order, control: 'CA', priority: 'urgent' }),
    );
    const orc = seg(cancelled, 'ORC');
    assert.deepEqual(
      [orc.getField(1)?.toString(), orc.getField(5)?.toString(), seg(cancelled, 'TQ1').getField(9)?.toString()],
      ['CA', 'CA', 'A'],
    );
    assert.equal(seg(cancelled, 'PV1').getComponent(3, 3), 'B');
    assert.equal(at(cancelled.getAllSegments('OBR'), 1).getComponent(4, 1), 'IMG-XR');
  });
});
