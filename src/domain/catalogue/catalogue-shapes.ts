import { NextFreeShape } from '../scheduling/scheduling-shapes.ts';
import { GenderShape, ImageShape, NamedShape } from '../shared/shared-shapes.ts';
import { component, date, email, id, nullable, object, ref, string, type Static } from '../shared/wire-schema.ts';

// The catalogue's answers, written once (docs/architecture.md "The wire contract").

export const DepartmentShape = component('Department', object({ id: id(), name: string(), description: string() }));
export type Department = Static<typeof DepartmentShape>;

export const SpecializationShape = component('Specialization', object({ id: id(), name: string() }));
export type Specialization = Static<typeof SpecializationShape>;

export const DiseaseShape = component('Disease', object({ id: id(), name: string(), description: string() }));
export type Disease = Static<typeof DiseaseShape>;

export const RoomShape = component(
  'Room',
  object({ id: id(), name: string(), department_id: id(), department: ref(NamedShape) }),
);
export type Room = Static<typeof RoomShape>;

const doctorFields = {
  id: id(),
  name: string(),
  email: email(),
  user: object({ id: id(), name: string(), email: email(), profile_image: ref(ImageShape) }),
  phone: string(),
  gender: nullable(ref(GenderShape)),
  specialization: nullable(ref(NamedShape)),
  department: nullable(ref(NamedShape)),
  bio: string(),
  birthdate: nullable(date()),
  address: string(),
  image: ref(ImageShape),
};

export const DoctorShape = component('Doctor', object(doctorFields));
export type Doctor = Static<typeof DoctorShape>;

/** A doctor in the patient's list, with their first free time when it was worked out (NEXT_FREE_DOCTORS). */
export const BookableDoctorShape = component(
  'BookableDoctor',
  object({ ...doctorFields, next_free: nullable(NextFreeShape) }, { optional: ['next_free'] }),
);
export type BookableDoctor = Static<typeof BookableDoctorShape>;
