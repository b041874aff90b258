import type { AuditLog } from '../audit/audit.ts';
import type { Gender } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { DefaultPatternWriter } from '../scheduling/ports.ts';
import type { Photo, Usage } from './catalogue.ts';
import type { Department, Disease, Doctor, Room, Specialization } from './catalogue-shapes.ts';

/**
 * One reference table the admin manages (departments, specializations, diseases, rooms).
 * A taken name is a conflict `name_taken`; a reference to a row that does not exist is `invalid` naming the field.
 */
export interface CatalogueTable<T, Fields> {
  list(req: PageRequest): Promise<Page<T>>;
  find(id: number): Promise<T | undefined>;
  create(fields: Fields): Promise<T>;
  update(id: number, fields: Fields): Promise<T | undefined>;
  /** What still points at the row; deleting it anyway would lose that history. */
  usage(id: number): Promise<Usage>;
  /** False when there was no such row; a row used after `usage` was read is a conflict `in_use`. */
  remove(id: number): Promise<boolean>;
}

export interface DepartmentFields {
  name: string;
  description: string;
}
export interface SpecializationFields {
  name: string;
}
export type DiseaseFields = DepartmentFields;
export interface RoomFields {
  name: string;
  departmentId: number;
}

export interface CatalogueDeps {
  departments: CatalogueTable<Department, DepartmentFields>;
  specializations: CatalogueTable<Specialization, SpecializationFields>;
  diseases: CatalogueTable<Disease, DiseaseFields>;
  rooms: CatalogueTable<Room, RoomFields>;
  audit: AuditLog;
  /** All or nothing: a write and its audit row; `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: CatalogueDeps) => Promise<T>): Promise<T>;
}

export interface DoctorProfileFields {
  name: string;
  email: string;
  phone: string;
  gender: Gender | null;
  specializationId: number | null;
  departmentId: number | null;
  bio: string;
  birthdate: string | null;
  address: string;
}

/** What is attached to a doctor, deciding whether deleting them removes or deactivates. */
export interface DoctorAttachments {
  /** Scheduled appointments from today on: they must be cancelled before the doctor goes. */
  upcoming: number;
  /** Any appointment or medical record at all: history that must outlive the doctor. */
  hasHistory: boolean;
}

/** Doctors with their user accounts. Only active doctors are found or listed. */
export interface DoctorStore {
  list(req: PageRequest): Promise<Page<Doctor>>;
  find(id: number): Promise<Doctor | undefined>;
  /** The active doctor signing in with `email`, in any letter case. */
  findByEmail(email: string): Promise<Doctor | undefined>;
  /** The user (role doctor) and the doctor row; a taken email is a conflict `email_taken`. */
  create(fields: DoctorProfileFields & { passwordHash: string; photoId: number | null }): Promise<number>;
  update(id: number, fields: DoctorProfileFields & { passwordHash?: string; photoId?: number }): Promise<void>;
  /** Locks the doctor against new bookings until the transaction ends, then counts what is attached. */
  lockAttachments(id: number, today: string): Promise<DoctorAttachments | undefined>;
  /** Erases the doctor, their account, photo and weekly pattern. */
  remove(id: number): Promise<void>;
  /** Keeps the rows history points at; the account can no longer sign in and every open session ends. */
  deactivate(id: number, at: Date): Promise<void>;
}

export interface ImageStore {
  save(contentType: Photo['contentType'], bytes: Uint8Array): Promise<number>;
}

/** A stored image (a doctor's photo) as the browser fetches it. */
export interface StoredImage {
  contentType: Photo['contentType'];
  bytes: Uint8Array;
}

export interface ImageReader {
  find(id: number): Promise<StoredImage | undefined>;
}

export interface DoctorTxDeps {
  doctors: DoctorStore;
  images: ImageStore;
  /** Scheduling's port: a new doctor starts with the clinic's default week. */
  schedules: DefaultPatternWriter;
  audit: AuditLog;
}

export interface DoctorDeps extends DoctorTxDeps {
  hasher: { hash(password: string): Promise<string> };
  clock: Clock;
  timeZone: string;
  /** All or nothing: `fn` gets stores bound to one transaction. */
  transaction<T>(fn: (tx: DoctorTxDeps) => Promise<T>): Promise<T>;
}
