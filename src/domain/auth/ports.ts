import type { Bucket, ThrottleKey } from './throttle.ts';
import type { Actor, Gender, Role } from '../shared/actor.ts';
import type { AuditLog } from '../audit/audit.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { Hl7Outbox } from '../notifications/hl7-events.ts';
import type { Clinic } from '../notifications/message.ts';
import type { Notifying } from '../notifications/ports.ts';

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
  /** A nurse's department: the ward whose beds they work; null for every other role. */
  wardId: number | null;
}

/** Roles whose accounts are only users: no patient or doctor row. */
export type StaffRole = Extract<Role, 'admin' | 'reception' | 'lab' | 'nurse'>;

export interface StaffAccount {
  id: number;
  name: string;
  email: string;
  active: boolean;
  createdAt: Date;
  /** A nurse's department; null for the other staff. */
  department: { id: number; name: string } | null;
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
  /**
   * `createPatient` for the front desk: the patient has no sign-in address, and the one the desk enters, if any,
   * waits as `pendingEmail` until the patient confirms it; an address another account has is a conflict `email_taken`.
   */
  createWalkIn(
    account: Omit<NewPatientAccount, 'email'> & { pendingEmail: string | null },
  ): Promise<{ userId: number; patientId: number }>;
  createAdmin(account: { name: string; email: string; passwordHash: string }): Promise<UserRecord>;
  /** A staff account without a patient or doctor row; a taken email is a conflict `email_taken`. */
  createStaff(account: { name: string; email: string; passwordHash: string; role: StaffRole }): Promise<UserRecord>;
  /** A nurse's account and the department they belong to; an unknown department is 422 naming `department_id`. */
  createNurse(account: {
    name: string;
    email: string;
    passwordHash: string;
    departmentId: number;
  }): Promise<{ user: UserRecord; department: { id: number; name: string } }>;
  /** The accounts of a staff role, active first, by name; `q` searches name and e-mail. */
  listStaff(role: StaffRole, req: PageRequest): Promise<Page<StaffAccount>>;
  /** Deactivates the account if it has `role`; its sessions stop working at once. False when there is none. */
  deactivateStaff(userId: number, role: StaffRole): Promise<boolean>;
  /** Sets a new password hash; every session of the user ends with it (the database sees to that). */
  setPassword(userId: number, passwordHash: string): Promise<void>;
  /** The user's address is verified, if it is still `email` (a link to an old address verifies nothing). */
  markVerified(userId: number, email: string, at: Date): Promise<boolean>;
  /** The address staff entered for the user, waiting for confirmation, beside the one they sign in with (none for a walk-in). */
  emailChange(userId: number): Promise<{ current: string | null; pending: string } | undefined>;
  /**
   * The waiting address, if it is still `email`, becomes the user's verified sign-in address; another account
   * having taken it meanwhile is a conflict `email_taken`. False when it no longer waits.
   */
  confirmEmailChange(userId: number, email: string, at: Date): Promise<boolean>;
}

export interface NewSession {
  userId: number;
  tokenHash: string;
  expiresAt: Date;
  /** Remembered: the browser keeps its cookie after it closes. */
  persistent: boolean;
}

/** A live session: who is behind it and when it ends. */
export interface SessionLookup {
  user: SessionUser;
  expiresAt: Date;
  persistent: boolean;
}

export interface SessionStore {
  create(session: NewSession): Promise<void>;
  /**
   * The active user behind an unexpired, unrevoked session. `forWrite`: the lookup of a request that writes, which
   * waits for the database as long as its write will.
   */
  findUser(tokenHash: string, now: Date, forWrite?: boolean): Promise<SessionUser | undefined>;
  findSession(tokenHash: string, now: Date, forWrite?: boolean): Promise<SessionLookup | undefined>;
  revoke(tokenHash: string, now: Date): Promise<void>;
  /** Ends every session of the user ("sign out everywhere"). */
  revokeAll(userId: number, now: Date): Promise<void>;
}

/** A server's remembered session lookups, kept true by the database's notices of changes. */
export interface SessionCache {
  /** Starts hearing the database's notices; nothing is remembered until they are heard. */
  watch(): Promise<void>;
  /**
   * Forgets what a write this server answered may have changed, so its effect holds for the next request here
   * without waiting for the notice.
   */
  forgetAfterWriteBy(actor: Pick<Actor, 'role' | 'userId'>): void;
}

/** One-time links to set a new password, kept as digests. */
export interface PasswordResetStore {
  /**
   * Stores a new link and answers its id; the user's earlier unused links stop working. An e-mailed link has no
   * token yet (`tokenHash` null): the e-mail's sender mints it.
   */
  issue(reset: {
    userId: number;
    tokenHash: string | null;
    expiresAt: Date;
    createdBy: number | null;
  }): Promise<number>;
  /** Marks the link used and answers its user, if it is unused and unexpired; atomic, so a link works once. */
  use(tokenHash: string, now: Date): Promise<number | undefined>;
}

/** A user's TOTP authenticator and recovery codes. */
export interface MfaStore {
  find(userId: number): Promise<{ secret: string; confirmed: boolean } | undefined>;
  /** Keeps a new secret awaiting its first code; refused (false) while a confirmed one exists. */
  begin(userId: number, secret: string): Promise<boolean>;
  /** The first code was right: the authenticator counts from now, with these recovery codes in place of any old ones. */
  confirm(userId: number, step: number, recoveryCodeHashes: string[], now: Date): Promise<void>;
  /** Accepts a code's time step once: false when it, or a later one, was accepted before. */
  acceptStep(userId: number, step: number): Promise<boolean>;
  /** Uses up a recovery code: false when it is not one of the user's unused codes. */
  useRecoveryCode(userId: number, codeHash: string, now: Date): Promise<boolean>;
  replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void>;
  recoveryCodesLeft(userId: number): Promise<number>;
  /** Removes the authenticator and its codes; false when there was none. */
  remove(userId: number): Promise<boolean>;
}

/** A sign-in whose password was right, waiting for the second factor. */
export interface SignInChallenge {
  userId: number;
  persistent: boolean;
}

export interface ChallengeStore {
  create(challenge: SignInChallenge & { tokenHash: string; expiresAt: Date }): Promise<void>;
  /** The unused, unexpired challenge behind a digest. */
  find(tokenHash: string, now: Date): Promise<SignInChallenge | undefined>;
  /** Uses the challenge up; false when another request did first. */
  finish(tokenHash: string, now: Date): Promise<boolean>;
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
  /** A single-use MFA recovery code, short enough to type from paper. */
  recoveryCode(): string;
}

/** RFC 6238 codes, by a maintained library (src/security.ts). */
export interface Totp {
  newSecret(): string;
  /** The otpauth:// address an authenticator app reads from the QR code. */
  uri(secret: string, account: string, issuer: string): string;
  /** The QR code of `uri` as an SVG document. */
  qrSvg(uri: string): Promise<string>;
  /** The time step `code` belongs to, within one step of `now`; undefined when it is wrong. */
  stepOf(secret: string, code: string, now: Date): number | undefined;
}

/** The stores a sign-in's writes go through, all in one transaction. */
export interface AuthStores extends Notifying {
  accounts: AccountStore;
  sessions: SessionStore;
  resets: PasswordResetStore;
  mfa: MfaStore;
  challenges: ChallengeStore;
  audit: AuditLog;
  /** ADT^A04 to the receivers that take it, when a patient is registered. */
  hl7: Hl7Outbox;
}

export interface AuthDeps extends AuthStores {
  transaction<T>(fn: (tx: AuthStores) => Promise<T>): Promise<T>;
  throttle: Throttle;
  hasher: PasswordHasher;
  tokens: TokenIssuer;
  totp: Totp;
  clock: Clock;
  clinic: Clinic;
  /** Roles that must sign in with a second factor (REQUIRE_MFA). */
  requireMfa: readonly Role[];
}
