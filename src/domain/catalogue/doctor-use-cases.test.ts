import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { fixedClock } from '../shared/clock.ts';
import type { DomainError } from '../shared/errors.ts';
import type { Doctor } from './catalogue.ts';
import { createDoctor, deleteDoctor, updateDoctor } from './doctor-use-cases.ts';
import type { DoctorAttachments, DoctorDeps, DoctorProfileFields } from './ports.ts';
import { first, present } from '../../testing/assert.ts';

const ADMIN: Actor = { userId: 1, role: 'admin', name: 'Ada Admin', requestId: 'test' };
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);

/** Doctor ports over an array; `transaction` keeps nothing a failing callback wrote. */
function fakeDoctorDeps(attachments: DoctorAttachments = { upcoming: 0, hasHistory: false }) {
  let doctors: (DoctorProfileFields & { id: number; passwordHash: string; photoId: number | null; state: string })[] =
    [];
  const saved: number[] = [];
  const audit: AuditEntry[] = [];
  const calls: string[] = [];
  const defaultPatterns: { doctorId: number; departmentId: number | null }[] = [];
  const toDoctor = (d: (typeof doctors)[number]): Doctor => ({
    id: d.id,
    name: d.name,
    email: d.email,
    user: { id: d.id + 100, name: d.name, email: d.email, profile_image: null },
    phone: d.phone,
    gender: d.gender,
    specialization: d.specializationId ? { id: d.specializationId, name: 'Cardiologist' } : null,
    department: d.departmentId ? { id: d.departmentId, name: 'Cardiology' } : null,
    bio: d.bio,
    birthdate: d.birthdate,
    address: d.address,
    image: d.photoId ? `/api/files/${d.photoId}` : null,
  });
  const deps: DoctorDeps = {
    clock: fixedClock('2026-06-10T10:00:00Z'),
    timeZone: 'Europe/Berlin',
    hasher: {
      hash: async (p) => {
        calls.push('hash');
        return `hashed:${p}`;
      },
    },
    audit: { record: async (e) => void audit.push(e) },
    images: { save: async () => saved.push(saved.length + 1) },
    schedules: {
      createDefaultPattern: async (doctorId, departmentId) => void defaultPatterns.push({ doctorId, departmentId }),
    },
    doctors: {
      list: async () => ({
        items: doctors.filter((d) => d.state === 'active').map(toDoctor),
        total: 0,
        totalIsLowerBound: false,
        page: 1,
        perPage: 50,
      }),
      find: async (id) => doctors.filter((d) => d.id === id && d.state === 'active').map(toDoctor)[0],
      findByEmail: async (email) =>
        doctors.filter((d) => d.email.toLowerCase() === email.toLowerCase() && d.state === 'active').map(toDoctor)[0],
      create: async (f) => {
        doctors.push({ ...f, id: doctors.length + 1, state: 'active' });
        return doctors.length;
      },
      update: async (id, f) => {
        doctors = doctors.map((d) =>
          d.id === id
            ? { ...d, ...f, passwordHash: f.passwordHash ?? d.passwordHash, photoId: f.photoId ?? d.photoId }
            : d,
        );
      },
      lockAttachments: async (id) =>
        doctors.some((d) => d.id === id && d.state === 'active') ? attachments : undefined,
      remove: async (id) => {
        present(
          doctors.find((d) => d.id === id),
          'doctor',
        ).state = 'removed';
      },
      deactivate: async (id) => {
        present(
          doctors.find((d) => d.id === id),
          'doctor',
        ).state = 'deactivated';
      },
    },
    transaction: async (fn) => {
      calls.push('transaction');
      const before = structuredClone(doctors);
      try {
        return await fn(deps);
      } catch (error) {
        doctors = before;
        throw error;
      }
    },
  };
  return { deps, audit, calls, saved, defaultPatterns, state: (id: number) => doctors.find((d) => d.id === id)?.state };
}

const form = (fields: Record<string, unknown> = {}) => ({
  name: 'Dr. Ann',
  email: 'ann@clinic.test',
  password: 'secret words',
  ...fields,
});

describe('createDoctor', () => {
  it('hashes the password before opening the transaction and stores the photo inside it', async () => {
    const fake = fakeDoctorDeps();
    const doctor = await createDoctor(fake.deps, form({ photo: { filename: 'me.png', bytes: PNG } }), ADMIN);
    assert.deepEqual(fake.calls, ['hash', 'transaction']);
    assert.equal(doctor.image, '/api/files/1');
    assert.equal(first(fake.audit).action, 'create');
  });

  it("gives the new doctor the default weekly pattern in their department's rooms", async () => {
    const fake = fakeDoctorDeps();
    const doctor = await createDoctor(fake.deps, form({ department_id: 4 }), ADMIN);
    assert.deepEqual(fake.defaultPatterns, [{ doctorId: doctor.id, departmentId: 4 }]);
  });

  it('names every bad field and refuses a birthdate that is not in the past', async () => {
    const fake = fakeDoctorDeps();
    await assert.rejects(
      createDoctor(fake.deps, { gender: 'x', specialization_id: 'abc', birthdate: '2026-06-10' }, ADMIN),
      (e: DomainError) =>
        e.kind === 'invalid' &&
        ['name', 'email', 'password', 'gender', 'specialization_id', 'birthdate'].every((f) => e.fields?.[f]),
    );
    assert.deepEqual(fake.calls, []);
  });
});

describe('updateDoctor', () => {
  it('keeps the fields a request leaves out, and the password unless a new one is sent', async () => {
    const fake = fakeDoctorDeps();
    const created = await createDoctor(fake.deps, form({ bio: 'Heart surgeon', department_id: '3' }), ADMIN);
    const updated = await updateDoctor(fake.deps, String(created.id), { phone: '+1 555 0100' }, ADMIN);
    assert.equal(updated.bio, 'Heart surgeon');
    assert.equal(updated.department?.id, 3);
    assert.equal(updated.phone, '+1 555 0100');
    assert.deepEqual(fake.calls, ['hash', 'transaction', 'transaction']);
  });

  it('clears an optional reference sent empty', async () => {
    const fake = fakeDoctorDeps();
    const created = await createDoctor(fake.deps, form({ department_id: 3 }), ADMIN);
    assert.equal((await updateDoctor(fake.deps, created.id, { department_id: '' }, ADMIN)).department, null);
  });
});

describe('deleteDoctor', () => {
  it('refuses while scheduled appointments remain, saying how many, and changes nothing', async () => {
    const fake = fakeDoctorDeps({ upcoming: 2, hasHistory: true });
    const { id } = await createDoctor(fake.deps, form(), ADMIN);
    await assert.rejects(
      deleteDoctor(fake.deps, id, ADMIN),
      (e: DomainError) => e.code === 'doctor_has_appointments' && /2 scheduled appointments/.test(e.message),
    );
    assert.equal(fake.state(id), 'active');
  });

  it('deactivates a doctor with history and erases one without', async () => {
    const withHistory = fakeDoctorDeps({ upcoming: 0, hasHistory: true });
    const a = await createDoctor(withHistory.deps, form(), ADMIN);
    assert.deepEqual(await deleteDoctor(withHistory.deps, a.id, ADMIN), { result: 'deactivated' });
    assert.equal(withHistory.state(a.id), 'deactivated');

    const fresh = fakeDoctorDeps();
    const b = await createDoctor(fresh.deps, form(), ADMIN);
    assert.deepEqual(await deleteDoctor(fresh.deps, b.id, ADMIN), { result: 'removed' });
    await assert.rejects(deleteDoctor(fresh.deps, b.id, ADMIN), (e: DomainError) => e.kind === 'not_found');
  });
});
