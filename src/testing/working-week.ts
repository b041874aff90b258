import type { HoursRangeRequest } from '../domain/scheduling/scheduling-shapes.ts';
import type { Static } from '../domain/shared/wire-schema.ts';

/** Monday to Friday, 09:00–12:30 and 13:30–17:00, in 20-minute slots; in `roomId` when given. */
export const workingWeek = (roomId?: number): Static<typeof HoursRangeRequest>[] =>
  [1, 2, 3, 4, 5].flatMap((weekday) =>
    [
      { start_time: '09:00', end_time: '12:30' },
      { start_time: '13:30', end_time: '17:00' },
    ].map((span) => ({ weekday, ...span, slot_minutes: 20, ...(roomId === undefined ? {} : { room_id: roomId }) })),
  );

/** Where each slot of a day of `workingWeek` starts. */
export const EACH_DAY = [
  '09:00',
  '09:20',
  '09:40',
  '10:00',
  '10:20',
  '10:40',
  '11:00',
  '11:20',
  '11:40',
  '12:00',
  '13:30',
  '13:50',
  '14:10',
  '14:30',
  '14:50',
  '15:10',
  '15:30',
  '15:50',
  '16:10',
  '16:30',
];
