import { NextFreeShape } from '../scheduling/scheduling-shapes.ts';
import { GenderShape, ImageShape, NamedShape } from '../shared/shared-shapes.ts';
import { NewPasswordText } from '../auth/passwords.ts';
import {
  component,
  date,
  email,
  id,
  nullable,
  object,
  oneOfValues,
  ref,
  string,
  text,
  type Static,
} from '../shared/wire-schema.ts';

// The catalogue's requests and answers, written once (docs/architecture.md "The wire contract").

export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 2000;

const oneLine = (max: number) =>
  text(max, { rule: 'line', description: 'One line of text (no control characters), trimmed' });

// Requests: the admin's forms.

/** A department's or a disease's form. */
export const NameAndDescriptionRequest = object(
  { name: oneLine(NAME_MAX), description: text(DESCRIPTION_MAX, { min: 0, description: 'Empty when absent' }) },
  { optional: ['description'] },
);

export const SpecializationRequest = object({ name: oneLine(NAME_MAX) });

export const RoomRequest = object({ name: oneLine(NAME_MAX), department_id: id() });

/** A doctor's form, read from JSON or an upload's string parts (the photo is a file part of its own). */
const doctorFormFields = {
  name: oneLine(200),
  email: email(),
  password: NewPasswordText,
  phone: text(40, { min: 0 }),
  gender: ref(GenderShape),
  specialization_id: id(),
  department_id: id(),
  bio: text(5000, { min: 0 }),
  birthdate: date('A real date after 1900 and before today'),
  address: text(500, { min: 0 }),
};
const profileFields = ['phone', 'gender', 'specialization_id', 'department_id', 'bio', 'birthdate', 'address'] as const;

/** A new doctor's fields as the use case reads them. */
export const NewDoctorRequest = object(doctorFormFields, { optional: profileFields });
/** A doctor's fields on an update, over what the doctor has: only a new password may be missing. */
export const DoctorUpdateRequest = object(doctorFormFields, { optional: [...profileFields, 'password'] });

const photo = string({
  contentEncoding: 'binary',
  contentMediaType: 'image/*',
  description: 'PNG, JPEG or WebP (told by its bytes), at most 2 MiB',
});
/** The create form as an upload: every field a string part, the photo a file part. */
export const NewDoctorForm = object({ ...doctorFormFields, photo }, { optional: [...profileFields, 'photo'] });
/** The update form: each field optional, an absent one keeps its value. */
export const DoctorUpdateForm = object(
  { ...doctorFormFields, photo },
  { optional: [...profileFields, 'name', 'email', 'password', 'photo'] },
);

// Answers

/** What deleting a doctor did: erased (nothing attached) or deactivated (history kept). */
export const DoctorDeletionShape = object({ result: oneOfValues(['removed', 'deactivated'] as const) });
export type DoctorDeletionJson = Static<typeof DoctorDeletionShape>;

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
