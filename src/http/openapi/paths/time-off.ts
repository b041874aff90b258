import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import { listOf, propertiesOf, ref } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';
import {
  ClosureRequest,
  LeaveRequest,
  TimeOffListQuery,
  TimeOffAddedShape,
  TimeOffShape,
  VisitToMoveShape,
} from '../../../domain/scheduling/scheduling-shapes.ts';

const addErrors =
  'A bad field → 422 naming it (a date in the past: `ends_on`; one time without the other: the missing one).';

/** The operations of src/http/routes/time-off.ts. */
export const timeOffPaths: ModulePaths = {
  tag: 'Time off',
  description:
    "A doctor's leave (days, or part of each day) and closures of the whole clinic (holidays) take their slots out of booking, next-available, " +
    "waitlist offers and the doctor's agenda. Visits already booked inside them are never dropped: adding time off answers them, and the desk's " +
    'list keeps them until they are moved or cancelled.',
  schemas: {
    TimeOff: TimeOffShape,
    VisitToMove: VisitToMoveShape,
  },
  operations: {
    'GET /api/admin/time-off': {
      summary: 'Leave and closures',
      description:
        "Admins only. Those ending on `from` (default today) or later, soonest first; with `doctor_id`, that doctor's leave and the closures.",
      access: 'admin',
      query: { ...pageQuery, ...propertiesOf(TimeOffListQuery) },
      answers: { 200: listOf('time_off', ref('TimeOff')) },
    },
    'POST /api/admin/doctors/{id}/leave': {
      summary: "Add a doctor's leave",
      description: `Admins only; audited. Its slots are no longer offered; visits booked inside it stay and are answered for the desk to move. ${addErrors} An unknown or inactive doctor → 404.`,
      access: 'admin',
      body: LeaveRequest,
      answers: { 201: TimeOffAddedShape },
    },
    'POST /api/admin/closures': {
      summary: 'Close the clinic',
      description: `Admins only; audited. A holiday or other closure for every doctor, with a \`reason\` the desk sees. Visits booked inside it stay and are answered. ${addErrors}`,
      access: 'admin',
      body: ClosureRequest,
      answers: { 201: TimeOffAddedShape },
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
