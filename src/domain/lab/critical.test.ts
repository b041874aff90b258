import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { Message } from '../notifications/message.ts';
import { fixedClock } from '../../testing/http.ts';
import { tellCriticalAlerts } from './critical.ts';
import type { CriticalRecipients, LabDeps } from './ports.ts';
import { escalatesAt } from './reports.ts';

const raised = new Date('2026-05-04T08:00:00Z');

function depsWith(recipients: CriticalRecipients[]) {
  const sent: Message[] = [];
  const deps = {
    lab: { criticalRecipients: async () => recipients },
    outbox: { enqueue: async (...m: Message[]) => void sent.push(...m), withdraw: async () => {} },
    clinic: { name: 'Lakeside Clinic', timeZone: 'UTC', locale: 'en-US', mailFrom: 'desk@lakeside.test' },
    clock: fixedClock(raised.toISOString()),
  } as unknown as LabDeps;
  return { deps, sent };
}

const doctor = (userId: number, name: string) => ({ userId, email: `${name.toLowerCase()}@lakeside.test`, name });

describe('critical results by e-mail', () => {
  it('writes to the ordering doctor at once and to each doctor of the department at 30 minutes, once each', async () => {
    const { deps, sent } = depsWith([
      {
        notice: {
          alertId: 7,
          orderNumber: 'L20260504-000001',
          testName: 'Potassium',
          patientName: 'Ivy Inpatient',
          orderingDoctor: 'Dr. Ordering',
          escalatesAt: escalatesAt(raised),
        },
        orderingDoctor: doctor(1, 'Ordering'),
        department: [doctor(2, 'Colleague'), doctor(3, 'Other')],
      },
    ]);
    await tellCriticalAlerts(deps, [7]);
    assert.deepEqual(
      sent.map((m) => [m.kind, m.to, m.sendAfter.toISOString(), m.labAlertId, m.dedupeKey]),
      [
        ['critical_result', 'ordering@lakeside.test', '2026-05-04T08:00:00.000Z', 7, 'critical_result:alert:7:user:1'],
        [
          'critical_result_escalation',
          'colleague@lakeside.test',
          '2026-05-04T08:30:00.000Z',
          7,
          'critical_result_escalation:alert:7:user:2',
        ],
        [
          'critical_result_escalation',
          'other@lakeside.test',
          '2026-05-04T08:30:00.000Z',
          7,
          'critical_result_escalation:alert:7:user:3',
        ],
      ],
    );
    assert.ok(
      sent.every((m) => !m.text.includes('mmol')),
      'no value in an e-mail',
    );
  });

  it('writes nothing when no alert was raised', async () => {
    const { deps, sent } = depsWith([]);
    await tellCriticalAlerts(deps, []);
    assert.deepEqual(sent, []);
  });
});
