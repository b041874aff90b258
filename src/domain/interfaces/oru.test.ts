import assert from 'node:assert/strict';
import { Hl7Message } from '@medplum/core';
import { describe, it } from '../../testing/node-test.ts';
import { at } from '../../testing/assert.ts';
import { Hl7Refusal, messageTypeOf, readOru } from './oru.ts';

const MSH = 'MSH|^~\\&|ANALYSER|LAB|MEDORA|CLINIC|20260504103000+0000||ORU^R01^ORU_R01|C1|P|2.5.1';
const read = (...segments: string[]) => readOru(Hl7Message.parse([MSH, ...segments].join('\r')), 'Europe/Berlin');

/** The refusal a message is answered with: its ack code, table 0357 code and ERR-2 location. */
function refusal(run: () => unknown): [string, number, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof Hl7Refusal) return [error.ackCode, error.errorCode, error.location];
    throw error;
  }
  assert.fail('the message was taken');
}

describe('reading ORU^R01 results', () => {
  it('reads each order with its placer number whole and its results as the lab takes them', () => {
    const orders = read(
      'PID|1||123^^^MEDORA^MR',
      'ORC|RE|11545596-0175^MEDORA',
      'OBR|1|11545596-0175^MEDORA||24323-8^Panel^LN|||20260504100000',
      'OBX|1|NM|2823-3^Potassium^LN||4.2|mmol/L^^UCUM||H|||F|||20260504101500+0000',
      'OBX|2|SN|2345-7^Glucose^LN||^5.5|mmol/L|||||P',
      'OBX||CWE|LOCAL-1^Culture^L||NEG^Negative|||||||',
      'OBX|4|TX|IMG-1^Report^L||Lungs clear \\T\\ heart normal|',
    );
    const order = at(orders, 0);
    assert.equal(orders.length, 1);
    assert.deepEqual([order.location, order.placerOrderNumber, order.final], ['OBR^1', '11545596-0175', false]);
    // No offset: the clinic's wall clock (CEST, UTC+2).
    assert.equal(order.observedAt?.toISOString(), '2026-05-04T08:00:00.000Z');
    assert.deepEqual(
      order.results.map((r) => [r.location, r.setId, r.codeSystem, r.code, r.value, r.status]),
      [
        ['OBX^1', '1', 'loinc', '2823-3', { type: 'quantity', value: 4.2, unit: 'mmol/L' }, 'F'],
        ['OBX^2', '2', 'loinc', '2345-7', { type: 'quantity', value: 5.5, unit: 'mmol/L' }, 'P'],
        ['OBX^3', '3', 'local', 'LOCAL-1', { type: 'coded', code: 'NEG' }, 'F'],
        ['OBX^4', '4', 'local', 'IMG-1', { type: 'text', text: 'Lungs clear & heart normal' }, 'F'],
      ],
    );
    assert.equal(at(order.results, 0).effectiveAt?.toISOString(), '2026-05-04T10:15:00.000Z');
    assert.equal(at(order.results, 1).effectiveAt, undefined);
  });

  it('takes the placer number from ORC-2 when OBR-2 is empty, and a report final by OBR-25 or by every OBX-11', () => {
    const [byObr, byResults, preliminary] = read(
      'ORC|RE|L-1',
      'OBR|1|||X^X^L|||||||||||||||||||||P',
      'OBX|1|ST|X^X^L||done||||||P',
      'ORC|RE|L-2',
      'OBR|2|L-2||Y^Y^L',
      'OBX|1|ST|Y^Y^L||done||||||F',
      'ORC|RE|L-3',
      'OBR|3|L-3||Z^Z^L|||||||||||||||||||||F',
      'OBX|1|ST|Z^Z^L||done||||||P',
    );
    assert.deepEqual(
      [byObr, byResults, preliminary].map((o) => [o?.placerOrderNumber, o?.final]),
      [
        ['L-1', false],
        ['L-2', true],
        ['L-3', true],
      ],
    );
  });

  it('refuses what it does not take, as the acknowledgement says: AR for another message type, AE naming the field', () => {
    const other = Hl7Message.parse('MSH|^~\\&|A|B|C|D|20260504||ADT^A01^ADT_A01|C2|P|2.5.1\rPID|1');
    assert.equal(messageTypeOf(other), 'ADT^A01');
    assert.deepEqual(
      refusal(() => readOru(other, 'UTC')),
      ['AR', 200, 'MSH^1^9'],
    );
    const r02 = Hl7Message.parse('MSH|^~\\&|A|B|C|D|20260504||ORU^R30|C3|P|2.5.1\rOBR|1|L-1');
    assert.deepEqual(
      refusal(() => readOru(r02, 'UTC')),
      ['AR', 201, 'MSH^1^9'],
    );
    const cases: [string[], [string, number, string]][] = [
      [['PID|1'], ['AE', 101, 'OBR^1']],
      [['OBX|1|NM|A^^LN||1|mg'], ['AE', 100, 'OBX^1']],
      [['OBR|1|L-1'], ['AE', 101, 'OBR^1']],
      [['OBR|1|'], ['AE', 101, 'OBR^1^2']],
      [
        [`OBR|1|${'9'.repeat(41)}`, 'OBX|1|ST|A||x'],
        ['AE', 102, 'OBR^1^2'],
      ],
      [
        ['OBR|1|L-1|||||notatime', 'OBX|1|ST|A||x'],
        ['AE', 102, 'OBR^1^7'],
      ],
      [
        [`OBR|1|L-1${'|'.repeat(23)}C`, 'OBX|1|ST|A||x'],
        ['AE', 103, 'OBR^1^25'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ST|||x'],
        ['AE', 101, 'OBX^1^3'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ST|A||x||||||C'],
        ['AE', 103, 'OBX^1^11'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ST|A||x||||||F|||2026-05-04'],
        ['AE', 102, 'OBX^1^14'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ST|A||'],
        ['AE', 101, 'OBX^1^5'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|NM|A||4,2|mmol/L'],
        ['AE', 102, 'OBX^1^5'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|NM|A||4.2|'],
        ['AE', 101, 'OBX^1^6'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ED|A||x'],
        ['AE', 102, 'OBX^1^2'],
      ],
      [
        ['OBR|1|L-1', 'OBX|1|ST|A||x', 'OBR|2|L-2', 'OBX|1|NM|B||x|mg'],
        ['AE', 102, 'OBX^2^5'],
      ],
    ];
    for (const [segments, expected] of cases)
      assert.deepEqual(
        refusal(() => read(...segments)),
        expected,
        segments.join(' / '),
      );
  });
});
