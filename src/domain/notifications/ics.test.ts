import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { calendar, type CalendarVisit } from './ics.ts';
import { where } from './templates.ts';
import type { Clinic } from './message.ts';

const CLINIC: Clinic = {
  name: 'Lakeside, "Clinic"',
  timeZone: 'Europe/Berlin',
  locale: 'en-US',
  mailFrom: 'desk@lakeside.test',
};
const visit = (overrides: Partial<CalendarVisit> = {}): CalendarVisit => ({
  appointmentId: 7,
  date: '2030-03-25',
  startTime: '09:00',
  endTime: '09:30',
  summary: 'Appointment with Dr. Ada',
  description: 'Room 3',
  location: 'Cardiology',
  status: 'CONFIRMED',
  sequence: 0,
  ...overrides,
});
const NOW = new Date('2030-03-20T10:00:00Z');

describe('iCalendar files', () => {
  it('keeps each value inside its own content line, whatever control characters it holds', () => {
    const evil = 'Evil\r\nBcc: x@evil.example\rX-INJECTED:1\nEND:VEVENT\u0000\u001b[31m';
    const text = calendar(
      CLINIC,
      [
        visit({
          summary: evil,
          description: evil,
          location: evil,
          attendee: { name: evil, email: 'pat@example.test' },
        }),
      ],
      { method: 'REQUEST', now: NOW },
    );
    // Every physical line is a property, a continuation, or the end; none came from the values.
    for (const line of text.split('\r\n').filter(Boolean)) assert.match(line, /^( |[A-Z-]+[;:])/, line);
    assert.doesNotMatch(text, /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|\r(?!\n)|(?<!\r)\n/);
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent');
    assert.ok(event);
    assert.equal(event.getFirstPropertyValue('summary'), 'Evil\nBcc: x@evil.example\nX-INJECTED:1\nEND:VEVENT[31m');
    assert.equal(
      event.getFirstProperty('attendee')?.getParameter('cn'),
      'Evil Bcc: x@evil.example X-INJECTED:1 END:VEVENT[31m',
    );
    assert.equal(event.getAllProperties('x-injected').length, 0);
    assert.equal(new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').length, 1);
  });

  it('round-trips awkward names exactly: quotes, commas, semicolons, backslashes, carets, emoji and 80-character words', () => {
    const longWord = 'W'.padEnd(80, 'olfeschlegelsteinhausenbergerdorff');
    assert.equal(longWord.length, 80);
    const names = [
      'Ana "Nana" O\'Brien',
      'Smith, John; Jr.',
      'Back\\slash C:\\Users\\pat\\',
      "Caret ^n ^^ ^' Person",
      'Zoë 👩🏽‍⚕️ 🏥 Núñez',
      `${longWord} ${longWord}`,
      '"; ROLE=CHAIR:mailto:x@evil.example',
    ];
    for (const name of names) {
      const text = calendar(
        CLINIC,
        [
          visit({
            summary: `Appointment with ${name}`,
            description: name,
            location: name,
            attendee: { name, email: 'pat@example.test' },
          }),
        ],
        { method: 'REQUEST', now: NOW },
      );
      for (const line of text.split('\r\n').filter(Boolean))
        assert.ok(new TextEncoder().encode(line).length <= 75, `folded: ${line}`);
      const calendarComponent = new ICAL.Component(ICAL.parse(text));
      const event = calendarComponent.getFirstSubcomponent('vevent');
      assert.ok(event, name);
      assert.equal(event.getFirstProperty('attendee')?.getParameter('cn'), name);
      assert.equal(event.getFirstProperty('attendee')?.getParameter('role'), 'REQ-PARTICIPANT', name);
      assert.equal(event.getFirstPropertyValue('attendee'), 'mailto:pat@example.test', name);
      assert.equal(event.getFirstPropertyValue('summary'), `Appointment with ${name}`);
      assert.equal(event.getFirstPropertyValue('description'), name);
      assert.equal(event.getFirstPropertyValue('location'), name);
      assert.equal(event.getFirstProperty('organizer')?.getParameter('cn'), CLINIC.name);
    }
  });

  it('calls a room a room once: "room 4", but "Room 101" and "Consulting room 3" as they are named', () => {
    assert.equal(where({ room: '4', department: 'Cardiology' }), 'room 4, Cardiology');
    assert.equal(where({ room: 'Room 101', department: 'Cardiology' }), 'Room 101, Cardiology');
    assert.equal(where({ room: 'Consulting room 3', department: null }), 'Consulting room 3');
    assert.equal(where({ room: 'Roomy hall', department: null }), 'room Roomy hall');
  });
});
