import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { fixedClock } from '../shared/clock.ts';
import { doctorFeed, feedWindow, patientFeed, type DoctorFeedVisit } from './feed.ts';

const clinic = { name: 'Lakeside Clinic', timeZone: 'Europe/Berlin', locale: 'en-US', mailFrom: 'desk@lakeside.test' };
const now = new Date('2030-03-20T10:00:00Z');
const visit = (status: DoctorFeedVisit['status'], sequence = 0): DoctorFeedVisit => ({
  appointmentId: 7,
  date: '2030-04-01',
  startTime: '08:30',
  endTime: '09:00',
  status,
  doctorName: 'Dr. Ada Lovelace',
  patientName: 'Mia Meyer',
  room: '4',
  department: 'Cardiology',
  sequence,
  revisedAt: new Date('2030-03-18T09:15:00Z'),
});

describe('calendar feeds', () => {
  it("covers 30 days back to 180 ahead of the clinic's today", () => {
    // 23:30 UTC on 31 December is already 1 January in Berlin.
    assert.deepEqual(feedWindow(fixedClock('2030-12-31T23:30:00Z'), 'Europe/Berlin'), {
      from: '2030-12-02',
      to: '2031-06-30',
    });
  });

  it("names the patient in the doctor's feed, and nobody but the doctor in the patient's", () => {
    assert.match(doctorFeed(clinic, 'Dr. Ada Lovelace', [visit('scheduled')], now), /SUMMARY:Mia Meyer\r\n/);
    const own = patientFeed(clinic, [visit('scheduled')], now);
    assert.match(own, /SUMMARY:Appointment with Dr\. Ada Lovelace\r\n/);
    assert.doesNotMatch(own, /Mia|Meyer/);
  });

  it('keeps a cancelled visit as a cancelled event with the sequence stored with it', () => {
    const text = patientFeed(clinic, [visit('cancelled', 3)], now);
    assert.match(text, /UID:appointment-7@lakeside\.test\r\n/);
    assert.match(text, /STATUS:CANCELLED\r\n/);
    assert.match(text, /SEQUENCE:3\r\n/);
    assert.match(text, /SUMMARY:Cancelled: Appointment with Dr\. Ada Lovelace\r\n/);
    assert.match(text, /LOCATION:Lakeside Clinic\\, room 4\\, Cardiology\r\n/);
  });

  it('stamps each event with when its visit last changed, so an unchanged feed reads the same whenever it is asked for', () => {
    const text = patientFeed(clinic, [visit('scheduled')], now);
    assert.match(text, /DTSTAMP:20300318T091500Z\r\n/);
    assert.equal(patientFeed(clinic, [visit('scheduled')], new Date('2030-03-21T10:00:00Z')), text);
  });
});
