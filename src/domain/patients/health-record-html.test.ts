import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { healthRecordHtml } from './health-record-html.ts';
import type { HealthRecord } from './health-record-html.ts';
import type { PatientVisitJson } from './patients-shapes.ts';

const version = (n: number, prescriptions: string, reason: string | null) => ({
  version: n,
  disease: null,
  diagnosis: 'Headache <b>& "worse"</b>',
  lab_tests: '',
  prescriptions,
  written_by: { id: 1, name: 'Dr <i>Who</i>' },
  written_at: '2026-05-01T10:00:00Z',
  reason,
});

const visit: PatientVisitJson = {
  id: 1,
  date: '2026-05-01',
  start_time: '10:00',
  doctor: { id: 1, name: 'Dr <i>Who</i>' },
  disease: null,
  diagnosis: 'Headache <b>& "worse"</b>',
  prescriptions: 'amlodipine 5 mg <script>alert(1)</script>',
  lab_tests: '',
  service_type: 'Consultation',
  amended: true,
  history: [version(1, 'none', null), version(2, 'amlodipine 5 mg <script>alert(1)</script>', 'Dose added')],
  bill: null,
};

const record = (visits: PatientVisitJson[]): HealthRecord => ({
  profile: {
    user: { id: 1, name: 'Ann <Lee>', email: 'ann@example.test', role: 'patient', profile_image: null },
    patient: {
      id: 7,
      name: 'Ann <Lee>',
      email: 'ann@example.test',
      phone: '',
      birthdate: '1980-02-03',
      gender: null,
      photo: null,
      description: '',
      reminders: false,
      email_verified: true,
      pending_email: null,
    },
  },
  visits,
  stays: [],
  bills: [],
  receipts: [],
  results: [],
});

const printing = {
  clinic: { name: 'Clinic & Co', address: '1 Main St', phone: '+1 555', timeZone: 'UTC', locale: 'en-US' },
  printedAt: new Date('2026-06-01T12:00:00Z'),
};

describe('the health record page', () => {
  it('escapes every value it shows, so nothing in a record runs or breaks the page', () => {
    const html = healthRecordHtml(record([visit]), printing);
    assert.doesNotMatch(html, /<script|<b>|<i>|<Lee>/);
    assert.match(html, /amlodipine 5 mg &lt;script&gt;/);
    assert.match(html, /Health record of Ann &lt;Lee&gt;/);
    assert.match(html, /Clinic &amp; Co/);
  });

  it('lists every version of an amended record with its reason', () => {
    const html = healthRecordHtml(record([visit]), printing);
    assert.match(html, /Versions of this record/);
    assert.match(html, /First recorded/);
    assert.match(html, /Dose added/);
  });

  it('says None for the parts a patient has nothing in', () => {
    const html = healthRecordHtml(record([]), printing);
    assert.equal(html.match(/None\./g)?.length, 4);
  });
});
