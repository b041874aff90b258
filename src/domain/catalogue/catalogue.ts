import type { Gender } from '../shared/actor.ts';
import { DomainError, conflict, invalid } from '../shared/errors.ts';
import { MAX_IMAGE_BYTES, sniffImageType, type ImageType, type UploadedFile } from '../shared/files.ts';

export interface Department {
  id: number;
  name: string;
  description: string;
}

export interface Specialization {
  id: number;
  name: string;
}

export interface Disease {
  id: number;
  name: string;
  description: string;
}

export interface Room {
  id: number;
  name: string;
  department_id: number;
  department: { id: number; name: string };
}

export interface Doctor {
  id: number;
  name: string;
  email: string;
  user: { id: number; name: string; email: string; profile_image: string | null };
  phone: string;
  gender: Gender | null;
  specialization: { id: number; name: string } | null;
  department: { id: number; name: string } | null;
  bio: string;
  birthdate: string | null;
  address: string;
  image: string | null;
}

/** What still points at a catalogue row, counted per kind of thing; a kind with 0 is unused. */
export type Usage = Partial<Record<UsageKind, number>>;
export type UsageKind = keyof typeof USAGE_NOUNS;

const USAGE_NOUNS = {
  doctors: ['doctor', 'doctors'],
  rooms: ['room', 'rooms'],
  appointments: ['appointment', 'appointments'],
  schedule_slots: ['schedule slot', 'schedule slots'],
  medical_records: ['medical record', 'medical records'],
  hospital_stays: ['hospital stay', 'hospital stays'],
} as const;

/**
 * Refuses to delete a row something still uses, saying what uses it:
 * "3 doctors and 2 rooms still belong to this department".
 */
export function refuseWhenInUse(usage: Usage, verb: { one: string; many: string }, what: string): void {
  const used = (Object.entries(usage) as [UsageKind, number][]).filter(([, count]) => count > 0);
  if (used.length === 0) return;
  const parts = used.map(([kind, count]) => `${count} ${USAGE_NOUNS[kind][count === 1 ? 0 : 1]}`);
  const single = used.length === 1 && used[0]?.[1] === 1;
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  throw conflict('in_use', `${listed} still ${single ? verb.one : verb.many} ${what}`);
}

export interface Photo {
  contentType: ImageType;
  bytes: Uint8Array;
}

/** A doctor's photo from a form field: checked by its bytes, at most 2 MiB; undefined when none was sent. */
export function readPhoto(value: unknown, field = 'photo'): Photo | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const file = value as Partial<UploadedFile>;
  if (!(file.bytes instanceof Uint8Array)) throw invalid({ [field]: ['must be an uploaded image file'] });
  if (file.bytes.length > MAX_IMAGE_BYTES) {
    throw new DomainError(
      'too_large',
      'image_too_large',
      `The ${field} must be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MiB`,
    );
  }
  const contentType = sniffImageType(file.bytes);
  if (!contentType) throw invalid({ [field]: ['must be a PNG, JPEG or WebP image'] });
  return { contentType, bytes: file.bytes };
}
