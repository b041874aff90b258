import type { Bucket, ThrottleRule } from './throttle.ts';
import type { Gender, Role } from '../shared/actor.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: Role;
  passwordHash: string;
  active: boolean;
  profileImageId: number | null;
  patientId: number | null;
  doctorId: number | null;
}

/** Who is behind a session: everything but the password hash, which a signed-in request never needs. */
export type SessionUser = Omit<UserRecord, 'passwordHash'>;

export interface NewPatientAccount {
  name: string;
  email: string;
  passwordHash: string;
  phone: string;
  birthdate: string;
  gender: Gender;
}

/** Users with the patient or doctor row their role implies. */
export interface AccountStore {
  findByEmail(email: string): Promise<UserRecord | undefined>;
  findById(id: number): Promise<UserRecord | undefined>;
  /** Creates the user and its patient row together; a taken email is a conflict `email_taken`. */
  createPatient(account: NewPatientAccount): Promise<UserRecord>;
  createAdmin(account: { name: string; email: string; passwordHash: string }): Promise<UserRecord>;
}

export interface SessionStore {
  create(session: { userId: number; tokenHash: string; expiresAt: Date }): Promise<void>;
  /** The active user behind an unexpired, unrevoked session. */
  findUser(tokenHash: string, now: Date): Promise<SessionUser | undefined>;
  revoke(tokenHash: string, now: Date): Promise<void>;
}

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

/** Failure counts per key ('login:<email>|<address>'), shared by every instance. */
export interface Throttle {
  /**
   * Counts an attempt against every key before it is checked (so racing attempts all count), unless `wait`
   * says one must wait first; then nothing is counted and the longest wait in seconds is answered. Atomic
   * across callers and instances.
   */
  reserve(keys: ThrottleKey[], now: Date, wait: (buckets: Map<string, Bucket>) => number): Promise<number>;
  /** The attempt succeeded: `cleared` keys forget their failures; `forgiven` ones stop counting this attempt. */
  succeeded(cleared: string[], forgiven: string[]): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export interface TokenIssuer {
  /** A new unguessable bearer token. */
  issue(): string;
  /** What is stored for a token: never the token itself. */
  digest(token: string): string;
}

export interface AuthDeps {
  accounts: AccountStore;
  sessions: SessionStore;
  throttle: Throttle;
  hasher: PasswordHasher;
  tokens: TokenIssuer;
  audit: AuditLog;
  clock: Clock;
}
