import type { Config } from './config.ts';
import type { Db, Queryable } from './db/db.ts';
import type { Clock } from './domain/shared/clock.ts';
import type { Actor } from './domain/shared/actor.ts';
import * as authUseCases from './domain/auth/use-cases.ts';
import * as confirmEmailUseCases from './domain/auth/confirm-email-use-cases.ts';
import * as passwordUseCases from './domain/auth/password-use-cases.ts';
import * as mfaUseCases from './domain/auth/mfa-use-cases.ts';
import * as staffUseCases from './domain/auth/staff-use-cases.ts';
import type { AuthDeps, AuthStores, PasswordHasher, SessionCache, SessionStore } from './domain/auth/ports.ts';
import {
  accountStore,
  challengeStore,
  mfaStore,
  passwordResetStore,
  sessionStore,
  throttleStore,
} from './db/auth.pg.ts';
import { auditLog } from './db/audit.pg.ts';
import { cachedSessionStore } from './db/session-cache.ts';
import { argon2Hasher, bearerTokens, totp } from './security.ts';
import { fileStore } from './db/files.pg.ts';
import * as imageUseCases from './domain/catalogue/image-use-cases.ts';
import type { DatabaseLifecycle } from './domain/shared/lifecycle.ts';
import * as recordsUseCases from './domain/records/use-cases.ts';
import * as billingUseCases from './domain/billing/use-cases.ts';
import * as auditUseCases from './domain/audit/use-cases.ts';
import { DEFAULT_ANONYMOUS_RETENTION_DAYS } from './domain/audit/audit.ts';
import type { RecordsDeps } from './domain/records/ports.ts';
import type { BillingDeps } from './domain/billing/ports.ts';
import { diseaseLookup, doctorPatientStore, recordStore, visitAppointmentStore } from './db/records.pg.ts';
import { adjustmentStore, billStore, idempotencyStore, paymentStore } from './db/billing.pg.ts';
import { stripeCardCheckout } from './stripe-card-checkout.ts';
import { checkoutStore } from './db/card-checkouts.pg.ts';
import * as checkoutUseCases from './domain/billing/checkout-use-cases.ts';
import * as takingsUseCases from './domain/billing/takings-use-cases.ts';
import * as adjustUseCases from './domain/billing/adjust-use-cases.ts';
import { auditReader, auditTrail } from './db/audit.pg.ts';
import * as checkpointUseCases from './domain/audit/checkpoint-use-cases.ts';
import { NO_AUDIT_KEYS, type AuditKeys } from './domain/audit/checkpoint.ts';
import { chainLinks, checkpointStore } from './db/audit-checkpoints.pg.ts';

import * as catalogueUseCases from './domain/catalogue/use-cases.ts';
import * as doctorUseCases from './domain/catalogue/doctor-use-cases.ts';
import * as patientUseCases from './domain/patients/use-cases.ts';
import * as duplicateUseCases from './domain/patients/duplicate-use-cases.ts';
import * as healthRecordUseCases from './domain/patients/health-record-use-cases.ts';
import * as reportUseCases from './domain/reports/use-cases.ts';
import type { DoctorDeps, DoctorTxDeps } from './domain/catalogue/ports.ts';
import { departmentTable, diseaseTable, doctorStore, roomTable, specializationTable } from './db/catalogue.pg.ts';
import { patientDirectory, patientVisitStore } from './db/patients.pg.ts';
import { dashboardQueries } from './db/reports.pg.ts';
import * as patternUseCases from './domain/scheduling/pattern-use-cases.ts';
import * as bookingUseCases from './domain/scheduling/booking-use-cases.ts';
import * as monthUseCases from './domain/scheduling/month-use-cases.ts';
import * as cancelUseCases from './domain/scheduling/cancel-use-cases.ts';
import * as deskUseCases from './domain/scheduling/desk-use-cases.ts';
import * as listUseCases from './domain/scheduling/list-use-cases.ts';
import * as timeOffUseCases from './domain/scheduling/time-off-use-cases.ts';
import {
  DEFAULT_BOOKING_LIMITS,
  type SchedulingDeps,
  type SchedulingSettings,
  type WaitlistDeps,
} from './domain/scheduling/ports.ts';
import { appointmentStore, scheduleStore } from './db/scheduling.pg.ts';
import { timeOffStore } from './db/time-off.pg.ts';
import * as waitlistUseCases from './domain/scheduling/waitlist-use-cases.ts';
import { DEFAULT_WAITLIST_HOLD_MINUTES } from './domain/scheduling/waitlist.ts';
import { waitlistStore } from './db/waitlist.pg.ts';
import { placementStore } from './db/placements.pg.ts';

import { randomBytes } from 'node:crypto';
import * as importUseCases from './domain/imports/use-cases.ts';
import type { ImportDeps } from './domain/imports/ports.ts';
import { billingReport } from './domain/reports/billing-report.ts';
import { appointmentsReport } from './domain/reports/appointments-report.ts';
import { importLookup } from './db/imports.pg.ts';
import { billingReportQueries, dayAppointmentQueries } from './db/admin-reports.pg.ts';
import { linkTokenStore, messageLog, outboxStore } from './db/outbox.pg.ts';
import * as notificationUseCases from './domain/notifications/use-cases.ts';
import * as feedUseCases from './domain/notifications/feed-use-cases.ts';
import { calendarFeedStore } from './db/calendar-feeds.pg.ts';
import type { Clinic } from './domain/notifications/message.ts';
import type { Notifying } from './domain/notifications/ports.ts';
import { DEFAULT_REMINDER_HOURS } from './domain/notifications/templates.ts';
import { DEFAULT_LOCALE } from './domain/shared/date-format.ts';
import * as fhirUseCases from './domain/fhir/use-cases.ts';
import * as fhirEverything from './domain/fhir/everything-use-case.ts';
import * as systemExport from './domain/fhir/system-export.ts';
import { DEFAULT_EXPORT_RETENTION_HOURS } from './domain/fhir/bulk-files.ts';
import type { FhirDeps } from './domain/fhir/ports.ts';
import { exportJobStore } from './db/fhir-export.pg.ts';
import { fhirStore } from './db/fhir-search.pg.ts';
import { FHIR_TABLES } from './db/fhir-tables.pg.ts';
import * as bedUseCases from './domain/inpatient/bed-use-cases.ts';
import * as admissionUseCases from './domain/inpatient/admission-use-cases.ts';
import * as censusUseCases from './domain/inpatient/census-use-cases.ts';
import type { InpatientDeps } from './domain/inpatient/ports.ts';
import { admissionStore, bedStore, censusQueries, chargeStore } from './db/inpatient.pg.ts';
import * as careUseCases from './domain/care/use-cases.ts';
import * as labUseCases from './domain/lab/use-cases.ts';
import * as labApiUseCases from './domain/lab/api-use-cases.ts';
import { importTest } from './domain/lab/catalogue-import.ts';
import type { LabDeps } from './domain/lab/ports.ts';
import { labStore } from './db/lab.pg.ts';
import { hl7Inbox } from './db/hl7-inbox.pg.ts';
import { hl7Outbox } from './db/hl7-outbox.pg.ts';
import * as inboundUseCases from './domain/interfaces/inbound-use-cases.ts';
import * as interfacesUseCases from './domain/interfaces/admin-use-cases.ts';
import { interfacesStore } from './db/hl7-admin.pg.ts';
import type { InboundDeps } from './domain/interfaces/ports.ts';
import * as medicineUseCases from './domain/medicines/use-cases.ts';
import * as formularyImport from './domain/imports/formulary-import.ts';
import * as medicationOrderUseCases from './domain/medicines/order-use-cases.ts';
import * as marUseCases from './domain/medicines/mar-use-cases.ts';
import type { MedicinesDeps } from './domain/medicines/ports.ts';
import { allergyStore, formularyStore, medicationStore } from './db/medicines.pg.ts';
import { ucumUnits } from './ucum-units.ts';
import * as vitalsUseCases from './domain/vitals/use-cases.ts';
import type { VitalsDeps } from './domain/vitals/ports.ts';
import { vitalsStore } from './db/vitals.pg.ts';
import { breakGlassStore, careTeam, recordOpenings } from './db/care.pg.ts';

export type AppConfig = Pick<Config, 'clinicTz' | 'clinicName'> &
  Partial<
    Pick<
      Config,
      | 'bookingLimits'
      | 'resultsAutoReleaseDays'
      | 'temperatureUnit'
      | 'shiftHours'
      | 'billMedicines'
      | 'requireMfa'
      | 'mailFrom'
      | 'reminderHours'
      | 'waitlistHoldMinutes'
      | 'auditAnonymousRetentionDays'
      | 'exportRetentionHours'
      | 'clinicAddress'
      | 'clinicPhone'
      | 'clinicLocale'
      | 'stripe'
      | 'bankTransferDetails'
    >
  >;

/** The clinic as its messages present it. */
export const clinicOf = (config: AppConfig): Clinic => ({
  name: config.clinicName,
  timeZone: config.clinicTz,
  locale: config.clinicLocale ?? DEFAULT_LOCALE,
  mailFrom: config.mailFrom ?? 'no-reply@medora.local',
});

/** The outbox and its one-time links over `q`, for a module whose writes send messages. */
const notifying = (q: Queryable): Notifying => ({ outbox: outboxStore(q), links: linkTokenStore(q, bearerTokens) });

/** A module's use cases bound to their dependencies: `(deps, ...args) => r` becomes `(...args) => r`. */
type Bound<M> = {
  [K in keyof M as M[K] extends (...args: never[]) => unknown ? K : never]: M[K] extends (
    deps: never,
    ...args: infer A
  ) => infer R
    ? (...args: A) => R
    : never;
};
/** `M` itself when `deps` has every port each of its use cases asks for; otherwise the use case that lacks one is `never`. */
type GivenAll<M, D> = {
  [K in keyof M]: M[K] extends (deps: infer Needed, ...args: never[]) => unknown
    ? [D] extends [Needed]
      ? M[K]
      : never
    : M[K];
};

/** Binds a module's use cases to `deps`; a module bound without one of its ports does not compile. */
function bind<M extends GivenAll<M, D>, D>(module: M, deps: D): Bound<M> {
  return Object.fromEntries(
    Object.entries(module)
      .filter(([, f]) => typeof f === 'function')
      .map(([name, f]) => [name, (...args: unknown[]) => (f as (...a: unknown[]) => unknown)(deps, ...args)]),
  ) as Bound<M>;
}

type Transactional<D> = D & { transaction<T>(fn: (tx: Transactional<D>) => Promise<T>): Promise<T> };

/** Deps over `db` whose `transaction` hands `fn` the same deps bound to one transaction (reused if already inside one). */
function transactional<D extends object>(db: Db, make: (q: Queryable) => D): Transactional<D> {
  return { ...make(db), transaction: (fn) => db.transaction((tx) => fn(insideTransaction(tx, make))) };
}

/** Deps bound to a transaction already open, whose `transaction` joins it. */
function insideTransaction<D extends object>(tx: Queryable, make: (q: Queryable) => D): Transactional<D> {
  const deps: Transactional<D> = { ...make(tx), transaction: (fn) => fn(deps) };
  return deps;
}

// Exported so a test can wrap one store to inject a failure in the middle of a transaction.
export function recordsDeps(db: Db, clock: Clock, config: AppConfig): RecordsDeps {
  return transactional(db, (q) => ({
    appointments: visitAppointmentStore(q),
    records: recordStore(q),
    diseases: diseaseLookup(q),
    patients: doctorPatientStore(q),
    bills: billStore(q),
    audit: auditLog(q),
    careTeam: careTeam(q),
    outbox: outboxStore(q),
    clock,
    timeZone: config.clinicTz,
    clinic: clinicOf(config),
  }));
}

const labStores = (q: Queryable, clock: Clock, config: AppConfig): Omit<LabDeps, 'transaction'> => ({
  lab: labStore(q),
  bills: billStore(q),
  adjustments: adjustmentStore(q),
  units: ucumUnits,
  audit: auditLog(q),
  careTeam: careTeam(q),
  outbox: outboxStore(q),
  clinic: clinicOf(config),
  hl7: hl7Outbox(q, config.clinicName),
  clock,
  timeZone: config.clinicTz,
  autoReleaseDays: config.resultsAutoReleaseDays ?? null,
});

export function labDeps(db: Db, clock: Clock, config: AppConfig): LabDeps {
  return transactional(db, (q) => labStores(q, clock, config));
}

/** What a received HL7 message is recorded with: the lab's use cases and the received messages, in one transaction. */
export function inboundDeps(db: Db, clock: Clock, config: AppConfig): InboundDeps {
  return transactional(db, (q) => ({ ...labStores(q, clock, config), inbox: hl7Inbox(q) }));
}

export function vitalsDeps(db: Db, clock: Clock, config: AppConfig): VitalsDeps {
  return {
    ...transactional(db, (q) => ({
      vitals: vitalsStore(q),
      careTeam: careTeam(q),
      audit: auditLog(q),
      outbox: outboxStore(q),
      clock,
    })),
    units: ucumUnits,
    timeZone: config.clinicTz,
    clinic: clinicOf(config),
    temperatureUnit: config.temperatureUnit ?? 'Cel',
    shiftHours: config.shiftHours ?? 8,
  };
}

export function medicinesDeps(db: Db, clock: Clock, config: AppConfig): MedicinesDeps {
  return transactional(db, (q) => ({
    formulary: formularyStore(q),
    allergies: allergyStore(q),
    medications: medicationStore(q, () => clock.now()),
    bills: billStore(q),
    audit: auditLog(q),
    careTeam: careTeam(q),
    units: ucumUnits,
    clock,
    timeZone: config.clinicTz,
    billMedicines: config.billMedicines ?? false,
    clinic: { name: config.clinicName, address: config.clinicAddress ?? '', phone: config.clinicPhone ?? '' },
  }));
}

/** The FHIR API's: searches and exports read from `reads` (a replica when there is one), audits write to `db`. */
export function fhirApiDeps(db: Db, clock: Clock, config: AppConfig, reads: Queryable = db): FhirDeps {
  const timeZone = config.clinicTz;
  return {
    store: fhirStore(reads, FHIR_TABLES, timeZone, config.resultsAutoReleaseDays ?? null, () => clock.now()),
    audit: auditLog(db),
    careTeam: careTeam(db),
    clock,
    timeZone,
    clinic: { name: config.clinicName, address: config.clinicAddress ?? '', phone: config.clinicPhone ?? '', timeZone },
  };
}

export function billingDeps(db: Db, clock: Clock, config: AppConfig): BillingDeps {
  const cardCheckout = config.stripe ? stripeCardCheckout(config.stripe) : null;
  return transactional(db, (q) => ({
    bills: billStore(q),
    payments: paymentStore(q),
    adjustments: adjustmentStore(q),
    cardCheckout,
    checkouts: checkoutStore(q),
    offlinePayment: { bankTransfer: config.bankTransferDetails ?? null },
    idempotency: idempotencyStore(q),
    audit: auditLog(q),
    outbox: outboxStore(q),
    clinic: clinicOf(config),
    clock,
    timeZone: config.clinicTz,
    clinicContact: {
      name: config.clinicName,
      address: config.clinicAddress ?? '',
      phone: config.clinicPhone ?? '',
      timeZone: config.clinicTz,
    },
  }));
}

export function inpatientDeps(db: Db, clock: Clock, config: AppConfig, reads: Queryable = db): InpatientDeps {
  return transactional(db, (q) => ({
    beds: bedStore(q),
    admissions: admissionStore(q),
    charges: chargeStore(q),
    // The midnight census is a report, read apart from every write (lag-tolerant; a replica when there is one).
    census: censusQueries(reads),
    bills: billStore(q),
    audit: auditLog(q),
    careTeam: careTeam(q),
    hl7: hl7Outbox(q, config.clinicName),
    clock,
    timeZone: config.clinicTz,
  }));
}

const catalogueStores = (q: Queryable) => ({
  departments: departmentTable(q),
  specializations: specializationTable(q),
  diseases: diseaseTable(q),
  rooms: roomTable(q),
  audit: auditLog(q),
});

const doctorStores = (q: Queryable): DoctorTxDeps => ({
  doctors: doctorStore(q),
  images: fileStore(q),
  schedules: scheduleStore(q),
  audit: auditLog(q),
});

export function doctorDeps(db: Db, clock: Clock, config: AppConfig, hasher: PasswordHasher): DoctorDeps {
  return transactional(db, (q) => ({ ...doctorStores(q), hasher, clock, timeZone: config.clinicTz }));
}

// --- imports (CLI)
/**
 * A doctor's first password, 96 random bits. One that began with '-' would reach the credentials CSV behind the
 * formula guard's quote and so not be the password: drawn again.
 */
function importedPassword(): string {
  const password = randomBytes(12).toString('base64url');
  return password.startsWith('-') ? importedPassword() : password;
}

/** An import writes every row through the catalogue's own use cases, all bound to one transaction. */
function importDeps(db: Db, clock: Clock, config: AppConfig, hasher: PasswordHasher): ImportDeps {
  return {
    lookup: importLookup(db),
    hasher,
    passwords: { generate: importedPassword },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          createDepartment: (body, actor) =>
            catalogueUseCases.createDepartment(insideTransaction(tx, catalogueStores), body, actor),
          createSpecialization: (body, actor) =>
            catalogueUseCases.createSpecialization(insideTransaction(tx, catalogueStores), body, actor),
          createLabTest: (fields, actor) =>
            importTest(
              insideTransaction(tx, (q) => labStores(q, clock, config)),
              fields,
              actor,
            ),
          createDoctor: (body, passwordHash, actor) =>
            doctorUseCases.createDoctorHashed(
              { ...doctorStores(tx), clock, timeZone: config.clinicTz },
              body,
              passwordHash,
              actor,
            ),
        }),
      ),
  };
}

/** The tables scheduling and the waitlist both work on, over `q`; each module's deps type says which it uses. */
const schedulingStores = (q: Queryable) => ({
  schedules: scheduleStore(q),
  timeOff: timeOffStore(q),
  appointments: appointmentStore(q),
  waitlist: waitlistStore(q, bearerTokens),
  placements: placementStore(q),
  audit: auditLog(q),
  ...notifying(q),
});

const schedulingSettings = (clock: Clock, config: AppConfig): SchedulingSettings => ({
  clock,
  timeZone: config.clinicTz,
  waitlistHoldMinutes: config.waitlistHoldMinutes ?? DEFAULT_WAITLIST_HOLD_MINUTES,
  bookingLimits: config.bookingLimits ?? DEFAULT_BOOKING_LIMITS,
  clinic: clinicOf(config),
  reminderHours: config.reminderHours ?? DEFAULT_REMINDER_HOURS,
});

export function schedulingDeps(db: Db, clock: Clock, config: AppConfig): SchedulingDeps {
  return transactional(db, (q) => ({ ...schedulingStores(q), ...schedulingSettings(clock, config) }));
}

export function waitlistDeps(db: Db, clock: Clock, config: AppConfig): WaitlistDeps {
  return transactional(db, (q) => ({ ...schedulingStores(q), ...schedulingSettings(clock, config) }));
}

/** Sign-in's stores over `q`; outside a transaction, sessions are looked up through the server's cache. */
const authStores =
  (db: Db, cached: SessionStore, config: AppConfig) =>
  (q: Queryable): AuthStores => ({
    accounts: accountStore(q),
    sessions: q === db ? cached : sessionStore(q),
    resets: passwordResetStore(q),
    mfa: mfaStore(q),
    challenges: challengeStore(q),
    audit: auditLog(q),
    hl7: hl7Outbox(q, config.clinicName),
    ...notifying(q),
  });

/** A load balancer takes an instance out of rotation when its database does not answer within this. */
const READY_WITHIN_MS = 1000;

/**
 * The one composition root: every HTTP route and CLI command reaches the use cases through this. Passwords are
 * hashed at argon2's full cost unless a test asks for less: thousands of sign-ups would otherwise take minutes.
 */
export function makeApp({
  db,
  reads = db,
  clock,
  config,
  hasher = argon2Hasher,
  auditKeys = NO_AUDIT_KEYS,
}: {
  db: Db;
  /**
   * Where the reads that tolerate seconds of lag go (reports, statistics, the census and its CSV, the audit screen
   * and its export, FHIR search and export): a streaming replica while it keeps up (db/read-replica.ts), else `db`.
   * Nothing that guards a write or reads what its user just wrote goes there.
   */
  reads?: Queryable;
  clock: Clock;
  config: AppConfig;
  hasher?: PasswordHasher;
  /** The audit checkpoints' keys, read from files outside the database (runtime.ts). */
  auditKeys?: AuditKeys;
}) {
  const timeZone = config.clinicTz;
  const fhirDeps = fhirApiDeps(db, clock, config, reads);
  const sessions = cachedSessionStore(sessionStore(db));
  const lifecycle: DatabaseLifecycle = db;
  const sessionCache: SessionCache = {
    watch: () => sessions.watch(db),
    forgetAfterWriteBy: (actor) => sessions.forgetAfterWriteBy(actor),
  };
  const authDeps: AuthDeps & { timeZone: string } = {
    ...transactional(db, authStores(db, sessions, config)),
    throttle: throttleStore(db),
    hasher,
    tokens: bearerTokens,
    totp,
    clock,
    timeZone,
    clinic: clinicOf(config),
    requireMfa: config.requireMfa ?? [],
  };

  const app = {
    clock,
    config,
    health: { ready: () => lifecycle.ready(READY_WITHIN_MS) },
    /** What the HTTP server does around each request: the session cache kept true. */
    requests: {
      watchSessions: () => sessionCache.watch(),
      forgetAfterWriteBy: sessionCache.forgetAfterWriteBy,
    },
    shutdown: { interrupt: () => lifecycle.interrupt() },
    auth: bind({ ...authUseCases, ...confirmEmailUseCases }, authDeps),
    passwords: bind(passwordUseCases, authDeps),
    mfa: bind(mfaUseCases, authDeps),
    staff: bind(staffUseCases, authDeps),
    images: bind(imageUseCases, { images: fileStore(db) }),
    records: bind(recordsUseCases, recordsDeps(db, clock, config)),
    billing: bind(
      { ...billingUseCases, ...checkoutUseCases, ...takingsUseCases, ...adjustUseCases },
      billingDeps(db, clock, config),
    ),
    audit: bind(auditUseCases, {
      auditRows: auditReader(reads),
      audit: auditLog(db),
      trail: auditTrail(db),
      clock,
      timeZone,
      anonymousRetentionDays: config.auditAnonymousRetentionDays ?? DEFAULT_ANONYMOUS_RETENTION_DAYS,
    }),
    auditCheckpoints: bind(checkpointUseCases, {
      ...transactional(db, (q) => ({ links: chainLinks(q), checkpoints: checkpointStore(q) })),
      clock,
      signer: auditKeys.signer,
      trustedKeys: auditKeys.trusted,
    }),
    catalogue: bind(catalogueUseCases, transactional(db, catalogueStores)),
    doctors: bind(doctorUseCases, doctorDeps(db, clock, config, hasher)),
    patients: bind(
      { ...patientUseCases, ...duplicateUseCases },
      {
        ...transactional(db, (q) => ({
          patients: patientDirectory(q),
          visits: patientVisitStore(q),
          records: recordStore(q),
          audit: auditLog(q),
          hl7: hl7Outbox(q, config.clinicName),
          ...notifying(q),
        })),
        confirmPassword: (actor: Actor, password: string) =>
          passwordUseCases.confirmPassword(authDeps, actor, password),
        clock,
        timeZone,
        clinic: clinicOf(config),
      },
    ),
    scheduling: bind(
      {
        ...patternUseCases,
        ...timeOffUseCases,
        ...bookingUseCases,
        ...monthUseCases,
        ...cancelUseCases,
        ...deskUseCases,
        ...listUseCases,
      },
      schedulingDeps(db, clock, config),
    ),
    waitlist: bind(waitlistUseCases, waitlistDeps(db, clock, config)),
    lab: bind(labUseCases, labDeps(db, clock, config)),
    labApi: bind(labApiUseCases, labDeps(db, clock, config)),
    vitals: bind(vitalsUseCases, vitalsDeps(db, clock, config)),
    hl7Inbound: bind(inboundUseCases, inboundDeps(db, clock, config)),
    interfaces: bind(
      interfacesUseCases,
      transactional(db, (q) => ({ interfaces: interfacesStore(q), audit: auditLog(q), clock })),
    ),
    medicines: bind(
      { ...medicineUseCases, ...medicationOrderUseCases, ...marUseCases, ...formularyImport },
      medicinesDeps(db, clock, config),
    ),
    care: bind(careUseCases, {
      ...transactional(db, (q) => ({
        careTeam: careTeam(q),
        breakGlass: breakGlassStore(q),
        openings: recordOpenings(q),
        audit: auditLog(q),
      })),
      clock,
      timeZone,
    }),
    inpatient: bind(
      { ...bedUseCases, ...admissionUseCases, ...censusUseCases },
      inpatientDeps(db, clock, config, reads),
    ),
    fhir: bind({ ...fhirUseCases, ...fhirEverything }, fhirDeps),
    fhirExport: bind(systemExport, {
      ...fhirDeps,
      ...transactional(db, (q) => ({ jobs: exportJobStore(q), audit: auditLog(q) })),
      retentionHours: config.exportRetentionHours ?? DEFAULT_EXPORT_RETENTION_HOURS,
    }),
    reports: bind(reportUseCases, { dashboard: dashboardQueries(reads), audit: auditLog(db), clock, timeZone }),
    imports: bind(importUseCases, importDeps(db, clock, config, hasher)),
    notifications: bind(notificationUseCases, { messages: messageLog(db) }),
    calendarFeeds: bind(feedUseCases, {
      ...transactional(db, (q) => ({ feeds: calendarFeedStore(q, bearerTokens), audit: auditLog(q) })),
      clock,
      clinic: clinicOf(config),
    }),
    adminReports: bind(
      { billingReport, appointmentsReport },
      { billing: billingReportQueries(reads), dayAppointments: dayAppointmentQueries(reads), clock, timeZone },
    ),
  };
  const healthRecord = bind(healthRecordUseCases, {
    sources: {
      profile: app.patients.myProfile,
      records: app.patients.myRecords,
      stays: app.inpatient.myStays,
      bills: app.billing.listMyBills,
      receipt: app.billing.billReceipt,
      results: app.labApi.myResults,
    },
    clinic: {
      name: config.clinicName,
      address: config.clinicAddress ?? '',
      phone: config.clinicPhone ?? '',
      timeZone,
      locale: clinicOf(config).locale,
    },
    clock,
  });
  return { ...app, healthRecord };
}

export type App = ReturnType<typeof makeApp>;
