import { readInput } from '../shared/read-fields.ts';
import { BreakGlassRequestShape } from './care-shapes.ts';
import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../audit/audit.ts';
import { Refusal } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import { breakGlassEnds, clinicalReadEntries, refusedByCareTeam, whatWasOpened, type Reach } from './care.ts';
import { reachOfList, requireCare } from './guard.ts';
import type { CareCheck } from './ports.ts';
import { breakGlass } from './use-cases.ts';

const doctor: Actor = { userId: 7, role: 'doctor', name: 'Dr. Grey', doctorId: 3, requestId: 'r1' };
const admin: Actor = { userId: 1, role: 'admin', name: 'Ada' };
const patient: Actor = { userId: 2, role: 'patient', name: 'Pat', patientId: 5 };
const nurse: Actor = { userId: 9, role: 'nurse', name: 'Nina Nurse', wardId: 4, requestId: 'r2' };
const glass: Reach = { via: 'break_glass', reason: 'Unconscious in the emergency room' };

/** A care team of `team` (patient ids) for doctor 3, asked `asked` times. */
function fakeCheck(team: Record<number, Reach>) {
  const audit: AuditEntry[] = [];
  const asked: number[][] = [];
  const deps: CareCheck = {
    careTeam: {
      reach: async (doctorId, ids, at) => {
        asked.push([...ids]);
        assert.equal(at.toISOString(), '2026-03-28T22:30:00.000Z');
        return new Map(doctorId === 3 ? ids.flatMap((id) => (team[id] ? [[id, team[id]] as const] : [])) : []);
      },
      onWard: async (departmentId, ids) => {
        asked.push([...ids]);
        return new Set(departmentId === 4 ? ids.filter((id) => team[id]?.via === 'ward') : []);
      },
    },
    audit: { record: async (...entries) => void audit.push(...entries) },
    clock: fixedClock('2026-03-28T22:30:00Z'),
  };
  return { deps, audit, asked };
}

describe('the care-team rule', () => {
  it('refuses a doctor who does not reach the patient, and no one else', () => {
    assert.equal(refusedByCareTeam(doctor, undefined), true);
    assert.equal(refusedByCareTeam(doctor, { via: 'care_team' }), false);
    assert.equal(refusedByCareTeam(doctor, glass), false);
    assert.equal(refusedByCareTeam(admin, undefined), false);
    assert.equal(refusedByCareTeam(patient, undefined), false);
    assert.equal(refusedByCareTeam({ ...doctor, doctorId: undefined }, undefined), false);
  });

  it("ends a break-the-glass access at the end of the clinic's day, across the change to summer time", () => {
    assert.equal(
      breakGlassEnds(new Date('2026-06-10T08:00:00Z'), 'Europe/Berlin').toISOString(),
      '2026-06-10T22:00:00.000Z',
    );
    // 23:30 on Saturday 28 March in Berlin (UTC+1); the next midnight is already summer time's day (UTC+1 still at 00:00).
    assert.equal(
      breakGlassEnds(new Date('2026-03-28T22:30:00Z'), 'Europe/Berlin').toISOString(),
      '2026-03-28T23:00:00.000Z',
    );
    assert.equal(
      breakGlassEnds(new Date('2026-03-29T10:00:00Z'), 'Europe/Berlin').toISOString(),
      '2026-03-29T22:00:00.000Z',
    );
    assert.equal(
      breakGlassEnds(new Date('2026-01-01T04:59:00Z'), 'America/New_York').toISOString(),
      '2026-01-01T05:00:00.000Z',
    );
  });

  it('requires a reason to break the glass, naming the field', () => {
    assert.deepEqual(readInput(BreakGlassRequestShape, { reason: '  Seen in the emergency room ' }), {
      reason: 'Seen in the emergency room',
    });
    for (const body of [{}, { reason: '' }, { reason: null }, { reason: 'x'.repeat(1001) }]) {
      assert.throws(
        () => readInput(BreakGlassRequestShape, body),
        (e: { kind: string; fields: Record<string, string[]> }) => e.kind === 'invalid' && 'reason' in e.fields,
      );
    }
  });

  it('writes one audit row per patient read, with the reason of the access it went through', () => {
    const entries = clinicalReadEntries(
      doctor,
      [
        { patientId: 5, action: 'list_read', entity: 'admission', entityId: 10 },
        { patientId: 6, action: 'list_read', entity: 'admission', entityId: 11 },
      ],
      new Map([[6, glass]]),
    );
    assert.deepEqual(
      entries.map((e) => [e.action, e.entity, e.entityId, e.patientId, e.requestId, e.details]),
      [
        ['list_read', 'admission', 10, 5, 'r1', undefined],
        ['list_read', 'admission', 11, 6, 'r1', { break_glass_reason: 'Unconscious in the emergency room' }],
      ],
    );
  });

  it('names what was opened in the words the patient reads', () => {
    assert.equal(whatWasOpened('read_records', 'patient'), 'Your medical records');
    assert.equal(whatWasOpened('read_summary', 'admission'), 'A discharge summary');
    assert.equal(whatWasOpened('read', 'admission'), 'A hospital stay');
    assert.equal(whatWasOpened('read', 'fhir_Encounter'), 'Your Encounter record (FHIR)');
    assert.equal(whatWasOpened('break_glass', 'patient'), 'Opened your record outside your care team');
  });
});

describe('requireCare', () => {
  const target = { what: 'Admission', entity: 'admission', entityId: 10, attempt: 'read' };

  it('answers a doctor outside the team as if the thing were missing, the refusal to be recorded', async () => {
    const { deps, audit } = fakeCheck({});
    await assert.rejects(
      requireCare(deps, doctor, { ...target, patientId: 5 }),
      (e) => e instanceof Refusal && e.kind === 'not_found' && e.entry.patientId === 5,
    );
    await assert.rejects(requireCare(deps, doctor, { ...target, patientId: undefined }), {
      kind: 'not_found',
      message: 'Admission not found',
    });
    assert.deepEqual(audit, []);
  });

  it('lets the care team and a break-the-glass access through, saying which', async () => {
    const { deps } = fakeCheck({ 5: { via: 'care_team' }, 6: glass });
    assert.deepEqual(await requireCare(deps, doctor, { ...target, patientId: 5 }), { via: 'care_team' });
    assert.deepEqual(await requireCare(deps, doctor, { ...target, patientId: 6 }), glass);
  });

  it('asks nothing for roles the care team does not bind', async () => {
    const { deps, asked } = fakeCheck({});
    assert.equal(await requireCare(deps, admin, { ...target, patientId: 5 }), undefined);
    assert.deepEqual(asked, []);
  });

  it("lets a nurse reach only the patients in their department's beds, as if the others did not exist", async () => {
    const { deps } = fakeCheck({ 5: { via: 'ward' } });
    assert.deepEqual(await requireCare(deps, nurse, { ...target, patientId: 5 }), { via: 'ward' });
    await assert.rejects(requireCare(deps, nurse, { ...target, patientId: 6 }), { kind: 'not_found' });
    await assert.rejects(requireCare(deps, { ...nurse, wardId: 7 }, { ...target, patientId: 5 }), {
      kind: 'not_found',
    });
    await assert.rejects(requireCare(deps, { ...nurse, wardId: undefined }, { ...target, patientId: 5 }), {
      kind: 'not_found',
    });
    const seen = await reachOfList(deps, nurse, [5, 6]);
    assert.deepEqual([seen.shows(5), seen.shows(6)], [true, false]);
    assert.equal(refusedByCareTeam(nurse, undefined), true);
    assert.equal(refusedByCareTeam(nurse, { via: 'ward' }), false);
  });

  it("asks once for a whole list's patients", async () => {
    const { deps, asked } = fakeCheck({ 5: { via: 'care_team' } });
    const seen = await reachOfList(deps, doctor, [5, 6, 5]);
    assert.deepEqual([seen.shows(5), seen.shows(6)], [true, false]);
    assert.deepEqual(asked, [[5, 6]]);
    assert.equal((await reachOfList(deps, admin, [6])).shows(6), true);
  });
});

describe('breakGlass', () => {
  it('opens the record until the end of the clinic day and audits the reason in the same transaction', async () => {
    const audit: AuditEntry[] = [];
    let inTransaction = false;
    const stores = {
      careTeam: { reach: async () => new Map(), onWard: async () => new Set<number>() },
      breakGlass: {
        open: async (a: { doctorId: number; patientId: number; reason: string; openedAt: Date; expiresAt: Date }) => {
          assert.ok(inTransaction);
          return {
            id: 1,
            doctor: { id: a.doctorId, name: 'Dr. Grey' },
            patient: { id: a.patientId, name: 'Pat' },
            reason: a.reason,
            openedAt: a.openedAt,
            expiresAt: a.expiresAt,
          };
        },
        list: async () => assert.fail('not used'),
      },
      openings: { list: async () => assert.fail('not used') },
      audit: {
        record: async (...entries: AuditEntry[]) => {
          assert.ok(inTransaction);
          audit.push(...entries);
        },
      },
    };
    const deps = {
      ...stores,
      clock: fixedClock('2026-06-10T08:00:00Z'),
      timeZone: 'Europe/Berlin',
      transaction: async <T>(fn: (tx: typeof stores) => Promise<T>) => {
        inTransaction = true;
        try {
          return await fn(stores);
        } finally {
          inTransaction = false;
        }
      },
    };
    const { access } = await breakGlass(
      deps,
      { patientId: '5', body: { reason: 'Called to the ward at night' } },
      doctor,
    );
    assert.deepEqual(
      [access.reason, access.opened_at, access.expires_at],
      ['Called to the ward at night', '2026-06-10T08:00:00.000Z', '2026-06-10T22:00:00.000Z'],
    );
    assert.deepEqual(
      audit.map((e) => [e.action, e.entity, e.patientId, e.details?.break_glass_reason]),
      [['break_glass', 'patient', 5, 'Called to the ward at night']],
    );
    await assert.rejects(breakGlass(deps, { patientId: '5', body: {} }, doctor), {
      kind: 'invalid',
      fields: { reason: ['is required'] },
    });
    await assert.rejects(breakGlass(deps, { patientId: '5', body: { reason: 'x' } }, admin), { kind: 'forbidden' });
  });
});
