import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Message } from '../notifications/message.ts';
import { fixedClock } from '../shared/clock.ts';
import type { OfferingTx } from './ports.ts';
import type { WeeklySlot } from './scheduling.ts';
import type { TimeSpan } from './time-span.ts';
import { slotFreed } from './slot-offers.ts';
import type { Hold, NewOffer } from './waitlist.ts';

const ZONE = 'Europe/Berlin';
const settings = {
  clock: fixedClock('2030-03-20T10:00:00Z'), // Wednesday 11:00 in Berlin
  timeZone: ZONE,
  waitlistHoldMinutes: 30,
  clinic: { name: 'Lakeside Clinic', timeZone: ZONE, locale: 'en-US', mailFrom: 'desk@lakeside.test' },
};
const MONDAY_NINE: WeeklySlot = {
  id: 5,
  doctorId: 1,
  weekday: 1,
  startTime: '09:00',
  endTime: '09:30',
  room: null,
  retired: false,
};

/** The ports slotFreed reaches, in memory: a doctor with `pattern`, `booked` times on the day, one entry in line. */
interface Clinic {
  pattern?: WeeklySlot[];
  booked?: TimeSpan[];
  holds?: Hold[];
  inLine?: number;
}

function clinic(opts: Clinic = {}) {
  const offers: NewOffer[] = [];
  const sent: Message[] = [];
  const tx = {
    schedules: { lockDoctor: async () => true, currentSlots: async () => opts.pattern ?? [MONDAY_NINE] },
    timeOff: { covering: async () => [] },
    appointments: { bookedTimes: async () => opts.booked ?? [] },
    waitlist: {
      holds: async () => opts.holds ?? [],
      nextInLine: async () => opts.inLine,
      offer: async (offer: NewOffer) => {
        offers.push(offer);
        return {
          offer: {
            ...offer,
            id: 9,
            status: 'open' as const,
            patient: { id: 3, name: 'Mia Meyer', email: 'mia@example.test' },
            doctor: { id: 1, name: 'Dr. Ada Lovelace' },
          },
        };
      },
    },
    audit: { record: async () => {} },
    outbox: { enqueue: async (...m: Message[]) => void sent.push(...m) },
  } as unknown as OfferingTx;
  return { tx, offers, sent };
}

const freed = { doctorId: 1, date: '2030-03-25', startTime: '09:00' };

describe('slotFreed', () => {
  it('holds the slot for the first in line for the hold time and e-mails them a link to the offer, with no token yet', async () => {
    const { tx, offers, sent } = clinic({ inLine: 4 });
    await slotFreed(settings, tx, freed);
    assert.deepEqual(offers, [
      {
        entryId: 4,
        doctorId: 1,
        scheduleId: 5,
        date: '2030-03-25',
        startTime: '09:00',
        endTime: '09:30',
        offeredAt: new Date('2030-03-20T10:00:00Z'),
        expiresAt: new Date('2030-03-20T10:30:00Z'),
      },
    ]);
    const [mail] = sent;
    assert.equal(mail?.kind, 'waitlist_offer');
    assert.equal(mail?.linkId, 9, "the link is the offer's; its token is minted when the e-mail is sent");
    assert.match(mail?.text ?? '', /We hold it for you until Wed, Mar 20, 11:30 AM\./);
    assert.match(mail?.text ?? '', /\{\{link\}\}/, 'the stored body holds the placeholder');
  });

  const cases: [string, Clinic, typeof freed][] = [
    ['nobody is in line', {}, freed],
    [
      'the slot is still taken by another booking',
      { inLine: 4, booked: [{ startTime: '08:45', endTime: '09:15' }] },
      freed,
    ],
    [
      'another offer holds it',
      {
        inLine: 4,
        holds: [{ offerId: 1, entryId: 2, patientId: 7, date: freed.date, startTime: '09:00', endTime: '09:30' }],
      },
      freed,
    ],
    ["the doctor's pattern no longer has it", { inLine: 4, pattern: [] }, freed],
    ['it has started', { inLine: 4 }, { ...freed, date: '2030-03-20', startTime: '10:30' }],
  ];
  for (const [why, opts, slot] of cases) {
    it(`offers nothing when ${why}`, async () => {
      const { tx, offers, sent } = clinic(opts);
      await slotFreed(settings, tx, slot);
      assert.deepEqual([offers, sent], [[], []]);
    });
  }
});
