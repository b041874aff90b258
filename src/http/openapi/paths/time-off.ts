import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import {
  array,
  date,
  id,
  integer,
  listOf,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  time,
  type Schema,
} from '../schema.ts';
import { pageQuery } from '../components.ts';
import { appointmentFields, hasStarted } from './scheduling.ts';

const spanFields = {
  starts_on: date('The first day'),
  ends_on: date('The last day (default `starts_on`); not in the past, at most 366 days after `starts_on`'),
  start_time: time('With `end_time`: only this part of each day'),
  end_time: time('After `start_time`'),
};

const added = object({
  time_off: ref('TimeOff'),
  visits_to_move: array(ref('VisitToMove'), { description: 'The first 200 visits still scheduled inside it' }),
  visits_to_move_total: integer({ minimum: 0 }),
});

const addErrors =
  'A bad field → 422 naming it (a date in the past: `ends_on`; one time without the other: the missing one).';

const reason = (description: string): Schema => string({ maxLength: 200, description });

/** The operations of src/http/routes/time-off.ts. */
export const timeOffPaths: ModulePaths = {
  tag: 'Time off',
  description:
    "A doctor's leave (days, or part of each day) and closures of the whole clinic (holidays) take their slots out of booking, next-available, " +
    "waitlist offers and the doctor's agenda. Visits already booked inside them are never dropped: adding time off answers them, and the desk's " +
    'list keeps them until they are moved or cancelled.',
  schemas: {
    TimeOff: object(
      {
        id: id(),
        kind: oneOfValues(['leave', 'closure'], '`closure`: the whole clinic'),
        doctor: nullable(ref('Named')),
        starts_on: date(),
        ends_on: date(),
        start_time: nullable(time()),
        end_time: nullable(time()),
        reason: string(),
      },
      { description: 'Whole days when the times are null' },
    ),
    VisitToMove: object({ ...appointmentFields, has_started: hasStarted, time_off: ref('TimeOff') }),
  },
  operations: {
    'GET /api/admin/time-off': {
      summary: 'Leave and closures',
      description:
        "Admins only. Those ending on `from` (default today) or later, soonest first; with `doctor_id`, that doctor's leave and the closures.",
      access: 'admin',
      query: { ...pageQuery, doctor_id: id(), from: date() },
      answers: { 200: listOf('time_off', ref('TimeOff')) },
    },
    'POST /api/admin/doctors/{id}/leave': {
      summary: "Add a doctor's leave",
      description: `Admins only; audited. Its slots are no longer offered; visits booked inside it stay and are answered for the desk to move. ${addErrors} An unknown or inactive doctor → 404.`,
      access: 'admin',
      body: object(
        { ...spanFields, reason: reason('Optional') },
        { optional: ['ends_on', 'start_time', 'end_time', 'reason'] },
      ),
      answers: { 201: added },
    },
    'POST /api/admin/closures': {
      summary: 'Close the clinic',
      description: `Admins only; audited. A holiday or other closure for every doctor, with a \`reason\` the desk sees. Visits booked inside it stay and are answered. ${addErrors}`,
      access: 'admin',
      body: object(
        { ...spanFields, reason: reason('Required, e.g. the holiday') },
        { optional: ['ends_on', 'start_time', 'end_time'] },
      ),
      answers: { 201: added },
    },
    'DELETE /api/admin/time-off/{id}': {
      summary: 'Take back leave or a closure',
      description: 'Admins only; audited. Its slots are offered again. Unknown → 404.',
      access: 'admin',
      answers: { 200: ref('TimeOff') },
    },
    'GET /api/appointments/to-move': {
      summary: 'Visits to move',
      description: `Reception and admins; audited. Visits still scheduled from today on inside a doctor's leave or a clinic closure, soonest first, each with the time off.`,
      access: [...DESK_ROLES],
      query: pageQuery,
      answers: { 200: listOf('appointments', ref('VisitToMove')) },
    },
  },
};
