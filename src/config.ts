import { readAutoReleaseDays } from './domain/lab/reports.ts';
import type { ShiftHours } from './domain/vitals/fluid-balance.ts';
import type { TemperatureUnit } from './domain/vitals/ports.ts';
import { availableParallelism } from 'node:os';
import { isValidTimeZone } from './domain/shared/clock.ts';
import { DEFAULT_LOCALE, supportedLocale } from './domain/shared/date-format.ts';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from './db/timeouts.ts';
import type { Pooler } from './db/postgres.ts';
import { DEFAULT_BOOKING_LIMITS, type BookingLimits } from './domain/scheduling/ports.ts';
import type { Role } from './domain/shared/actor.ts';
import { DEFAULT_REMINDER_HOURS } from './domain/notifications/templates.ts';
import { DEFAULT_WAITLIST_HOLD_MINUTES } from './domain/scheduling/waitlist.ts';
import { DEFAULT_ANONYMOUS_RETENTION_DAYS } from './domain/audit/audit.ts';
import { DEFAULT_EXPORT_RETENTION_HOURS } from './domain/fhir/bulk-files.ts';
import { DEFAULT_SEND_CONCURRENCY, DEFAULT_SEND_TIMEOUT_MS } from './domain/notifications/delivery.ts';
import type { StripeSettings } from './stripe-card-checkout.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** The role that owns the tables, for migrations only; `databaseUrl` is then an application role of its own. */
  databaseOwnerUrl?: string;
  /** Connections each process keeps to DATABASE_URL. */
  databasePoolSize: number;
  /** DATABASE_POOLER=transaction: DATABASE_URL is a transaction pooler (PgBouncer's pool_mode=transaction). */
  databasePooler: Pooler;
  /** The server itself, past the pooler: for LISTEN, migrations and backups (DATABASE_URL when unset). */
  databaseDirectUrl?: string;
  /** A streaming replica for the reads that tolerate seconds of lag (reports, exports, FHIR search, the audit screen). */
  databaseReadUrl?: string;
  /** How far behind the replica may be before those reads go to the primary again. */
  databaseReadMaxLagS: number;
  clinicTz: string;
  /** RESULTS_AUTO_RELEASE_DAYS: days after sign-off a lab report releases itself to the patient; null (the default) never. */
  resultsAutoReleaseDays: number | null;
  /** CLINIC_TEMPERATURE_UNIT: the UCUM unit temperatures are shown in, Cel (the default) or [degF]; stored as Cel. */
  temperatureUnit: TemperatureUnit;
  /** CLINIC_SHIFT_HOURS: the nursing shifts fluid balance is totalled by, 8 (the default) or 12 hours from 07:00. */
  shiftHours: ShiftHours;
  /** BILL_MEDICINES=1: each dose given on a ward adds a bill line at the formulary's price; off by default. */
  billMedicines: boolean;
  /** How dates and times read on screens, in e-mails and on printed pages (a BCP 47 tag: en-US, en-GB, de-DE). */
  clinicLocale: string;
  clinicName: string;
  /** Printed with the clinic's name on receipts and invoices; empty when unset. */
  clinicAddress: string;
  clinicPhone: string;
  /** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: patients pay online through Stripe Checkout; unset, online payment is off. */
  stripe?: StripeSettings;
  /** BANK_TRANSFER_DETAILS: the clinic's bank details a patient may pay a bill to; unset, no transfer is offered. */
  bankTransferDetails?: string;
  seedDemo: boolean;
  /** Proxies of our own in front of the server, whose X-Forwarded-For entries are believed. */
  trustProxy: number;
  /** Bounds on every wait for the database (the server's; see `cliTimeouts` for the command line's). */
  timeouts: DbTimeouts;
  /** What one patient may book for themselves. */
  bookingLimits: BookingLimits;
  /** How long SIGTERM lets requests in flight finish before their statements are cancelled. */
  shutdownGraceMs: number;
  /** When the embedded server backs itself up each night, HH:mm on the clinic's clock. */
  backupTime: string;
  /** Nightly backups kept in DATA_DIR/backups; 0 turns them off. */
  backupKeep: number;
  /** Roles that must sign in with a second factor (REQUIRE_MFA=admin,doctor). */
  requireMfa: Role[];
  /** Where users reach Medora, for links made outside a request (e-mails, the CLI's reset links). */
  publicUrl: string;
  /** Whether PUBLIC_URL was set, rather than made up from HOST and PORT. */
  publicUrlSet: boolean;
  /** FHIR_CORS_ORIGINS: the origins a browser app on another site may call /fhir/R4 from; none by default. */
  fhirCorsOrigins: string[];
  /** The mail server messages go through; none keeps them in the outbox, marked not sent. */
  smtpUrl?: string;
  /** The address messages come from. */
  mailFrom: string;
  /** How long before a visit its reminder goes out. */
  reminderHours: number;
  /** How long a waitlist offer holds its freed slot for the patient it is offered to. */
  waitlistHoldMinutes: number;
  /** How often the mail worker looks for due messages. */
  outboxPollMs: number;
  /**
   * How long a claimed message is its worker's unless renewed, as it is while being sent: a worker that died
   * mid-send loses it to another after this.
   */
  outboxLeaseMs: number;
  /** Messages each mail worker sends at once. */
  outboxConcurrency: number;
  /** How long a send waits for the mail server's reply. */
  smtpTimeoutMs: number;
  /** Days the audit trail keeps failed sign-ins that name no account. */
  auditAnonymousRetentionDays: number;
  /** The Ed25519 private key that signs the audit trail's checkpoints (PEM, PKCS8); kept outside the database. */
  auditSigningKeyFile?: string;
  /** Public keys that checkpoints are checked with (PEM, one or more), for whoever verifies without the private key. */
  auditVerifyKeyFile?: string;
  /** The port the MLLP listener takes HL7 v2 messages on (every interface); none: no listener. */
  hl7ListenPort?: number;
  /** How long an HL7 receiver has to acknowledge a message before the attempt counts as failed. */
  hl7AckTimeoutMs: number;
  /** A pause after each type a system export writes: lets a test stop the server in the middle of one. */
  exportPauseMs: number;
  /** EXPORT_RETENTION_HOURS: how long a finished system export's manifest and files are kept; the worker then deletes them. */
  exportRetentionHours: number;
}

/** Reports over a year of a hospital may run for minutes; the command line waits that long for one statement. */
export const CLI_STATEMENT_TIMEOUT_MS = 10 * 60_000;

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const clinicTz = env.CLINIC_TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isValidTimeZone(clinicTz))
    throw new Error(`CLINIC_TZ must be an IANA time zone such as Europe/Berlin, got "${clinicTz}"`);
  const clinicLocale = supportedLocale(env.CLINIC_LOCALE || DEFAULT_LOCALE);
  if (!clinicLocale)
    throw new Error(`CLINIC_LOCALE must be a language tag such as en-US or de-DE, got "${env.CLINIC_LOCALE}"`);
  const databasePoolSize = Number(env.DATABASE_POOL_SIZE || defaultPoolSize());
  if (!Number.isInteger(databasePoolSize) || databasePoolSize < 1) {
    throw new Error(`DATABASE_POOL_SIZE must be a whole number of connections, got "${env.DATABASE_POOL_SIZE}"`);
  }
  const whole = (name: string, fallback: number, min = 1) => {
    const raw = env[name];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`${name} must be a whole number of at least ${min}, got "${raw}"`);
    return value;
  };
  const backupTime = env.BACKUP_TIME || '02:30';
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(backupTime))
    throw new Error(`BACKUP_TIME must be a time of day as HH:MM (24-hour clock), got "${env.BACKUP_TIME}"`);
  const requireMfa = (env.REQUIRE_MFA ?? '')
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  const staff = requireMfa.filter((role): role is Role => role === 'admin' || role === 'doctor');
  if (staff.length !== requireMfa.length)
    throw new Error(`REQUIRE_MFA lists staff roles, admin and doctor, separated by commas; got "${env.REQUIRE_MFA}"`);
  const host = env.HOST || '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL || `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(publicUrl))
    throw new Error(`PUBLIC_URL must be an http(s) origin such as https://clinic.example.org, got "${env.PUBLIC_URL}"`);
  const mailFrom = env.MAIL_FROM || `no-reply@${mailDomainOf(new URL(publicUrl).hostname)}`;
  if (!/^[^\s@<>"]+@[^\s@<>"]+$/.test(mailFrom))
    throw new Error(`MAIL_FROM must be a bare e-mail address such as clinic@example.org, got "${env.MAIL_FROM}"`);
  if (env.DATABASE_OWNER_URL && !env.DATABASE_URL)
    throw new Error(
      "DATABASE_OWNER_URL is the owner of a PostgreSQL database: set DATABASE_URL to the application's role too",
    );
  const stripe = readStripe(env);
  const databasePooler = env.DATABASE_POOLER || 'none';
  if (databasePooler !== 'none' && databasePooler !== 'transaction')
    throw new Error(`DATABASE_POOLER must be none or transaction, got "${env.DATABASE_POOLER}"`);
  for (const name of ['DATABASE_DIRECT_URL', 'DATABASE_READ_URL'])
    if (env[name] && !env.DATABASE_URL) throw new Error(`${name} goes with DATABASE_URL, which is not set`);
  const hl7ListenPort = env.HL7_LISTEN_PORT ? Number(env.HL7_LISTEN_PORT) : undefined;
  if (hl7ListenPort !== undefined && (!Number.isInteger(hl7ListenPort) || hl7ListenPort < 1 || hl7ListenPort > 65535))
    throw new Error(`HL7_LISTEN_PORT must be a port number, got "${env.HL7_LISTEN_PORT}"`);
  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL))
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${env.SMTP_URL}"`);
  return {
    port,
    host,
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || undefined,
    databasePoolSize,
    databasePooler,
    databaseDirectUrl: env.DATABASE_DIRECT_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL || undefined,
    databaseReadMaxLagS: whole('DATABASE_READ_MAX_LAG_S', 10, 0),
    clinicTz,
    resultsAutoReleaseDays: readAutoReleaseDays(env.RESULTS_AUTO_RELEASE_DAYS),
    temperatureUnit: readTemperatureUnit(env.CLINIC_TEMPERATURE_UNIT),
    shiftHours: readShiftHours(env.CLINIC_SHIFT_HOURS),
    billMedicines: ['1', 'true', 'yes'].includes((env.BILL_MEDICINES ?? '').trim().toLowerCase()),
    clinicLocale,
    clinicName: env.CLINIC_NAME || 'Medora Clinic',
    clinicAddress: env.CLINIC_ADDRESS?.trim() ?? '',
    clinicPhone: env.CLINIC_PHONE?.trim() ?? '',
    ...(stripe && { stripe }),
    ...(env.BANK_TRANSFER_DETAILS?.trim() && { bankTransferDetails: env.BANK_TRANSFER_DETAILS.trim() }),
    seedDemo: env.SEED_DEMO !== '0',
    trustProxy: whole('TRUST_PROXY', 0, 0),
    timeouts: {
      acquireMs: whole('DATABASE_ACQUIRE_TIMEOUT_MS', DEFAULT_TIMEOUTS.acquireMs),
      statementMs: whole('DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_TIMEOUTS.statementMs),
      lockMs: whole('DATABASE_LOCK_TIMEOUT_MS', DEFAULT_TIMEOUTS.lockMs),
      readLockMs: whole('DATABASE_READ_LOCK_TIMEOUT_MS', DEFAULT_TIMEOUTS.readLockMs),
      idleInTransactionMs: whole('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', DEFAULT_TIMEOUTS.idleInTransactionMs),
    },
    shutdownGraceMs: whole('SHUTDOWN_GRACE_MS', 10_000, 0),
    bookingLimits: {
      perDoctorPerDay: whole('BOOKING_MAX_PER_DOCTOR_PER_DAY', DEFAULT_BOOKING_LIMITS.perDoctorPerDay),
      upcoming: whole('BOOKING_MAX_UPCOMING', DEFAULT_BOOKING_LIMITS.upcoming),
    },
    backupTime,
    // 0 turns nightly backups off.
    backupKeep: whole('BACKUP_KEEP', 7, 0),
    requireMfa: staff,
    publicUrl,
    publicUrlSet: Boolean(env.PUBLIC_URL),
    fhirCorsOrigins: parseCorsOrigins(env.FHIR_CORS_ORIGINS),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom,
    reminderHours: whole('REMINDER_HOURS', DEFAULT_REMINDER_HOURS),
    waitlistHoldMinutes: whole('WAITLIST_HOLD_MINUTES', DEFAULT_WAITLIST_HOLD_MINUTES),
    outboxPollMs: whole('OUTBOX_POLL_MS', 2000, 50),
    outboxLeaseMs: whole('OUTBOX_LEASE_MS', 120_000, 1000),
    outboxConcurrency: whole('OUTBOX_CONCURRENCY', DEFAULT_SEND_CONCURRENCY),
    smtpTimeoutMs: whole('SMTP_TIMEOUT_MS', DEFAULT_SEND_TIMEOUT_MS, 1000),
    auditAnonymousRetentionDays: whole('AUDIT_ANONYMOUS_RETENTION_DAYS', DEFAULT_ANONYMOUS_RETENTION_DAYS),
    auditSigningKeyFile: env.AUDIT_SIGNING_KEY_FILE || undefined,
    auditVerifyKeyFile: env.AUDIT_VERIFY_KEY_FILE || undefined,
    hl7ListenPort,
    hl7AckTimeoutMs: whole('HL7_ACK_TIMEOUT_MS', 30_000, 100),
    exportPauseMs: whole('MEDORA_TEST_EXPORT_PAUSE_MS', 0, 0),
    exportRetentionHours: whole('EXPORT_RETENTION_HOURS', DEFAULT_EXPORT_RETENTION_HOURS, 1),
  };
}

/** Stripe's keys come together or not at all: a secret key without the webhook's secret could never mark a bill paid. */
function readStripe(env: NodeJS.ProcessEnv): StripeSettings | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey && !webhookSecret) return undefined;
  if (!secretKey || !webhookSecret)
    throw new Error(
      'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together: set both for online card payments, or neither',
    );
  const apiUrl = env.STRIPE_API_URL?.trim();
  if (apiUrl && !/^https?:\/\/[^/]+\/?$/.test(apiUrl))
    throw new Error(`STRIPE_API_URL must be an http(s) origin such as http://127.0.0.1:12111, got "${apiUrl}"`);
  return { secretKey, webhookSecret, ...(apiUrl && { apiUrl }) };
}

/**
 * Twice the cores, as PostgreSQL's wiki advises for a database on the same machine: more connections than
 * that only take turns on the CPU. On 2 cores, 4 connections answered broad patient searches at 32 concurrent
 * requests with p99 33–38 ms where 10 took 44–53 ms, and no endpoint got slower.
 */
function defaultPoolSize(): number {
  return 2 * availableParallelism();
}

/**
 * The domain of the default sender: PUBLIC_URL's host when it is a domain name; an address (127.0.0.1) or a bare
 * host name (localhost) is no mail domain, so `localhost.localdomain` stands in (RFC 2606's reserved names).
 */
function mailDomainOf(host: string): string {
  const isAddress = /^\d+(\.\d+){3}$/.test(host) || host.startsWith('[');
  return isAddress || !host.includes('.') ? 'localhost.localdomain' : host;
}

function readTemperatureUnit(raw: string | undefined): TemperatureUnit {
  if (!raw || raw === 'Cel') return 'Cel';
  if (raw === '[degF]') return '[degF]';
  throw new Error(`CLINIC_TEMPERATURE_UNIT must be the UCUM unit Cel or [degF], got "${raw}"`);
}

function readShiftHours(raw: string | undefined): ShiftHours {
  if (!raw || raw === '8') return 8;
  if (raw === '12') return 12;
  throw new Error(`CLINIC_SHIFT_HOURS must be 8 or 12, got "${raw}"`);
}

/** FHIR_CORS_ORIGINS: origins (`https://app.example.org`) separated by commas. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  const bad = origins.find((o) => !/^https?:\/\/[^/\s]+$/.test(o));
  if (bad !== undefined)
    throw new Error(
      `FHIR_CORS_ORIGINS lists origins such as https://app.example.org, separated by commas; got "${bad}"`,
    );
  return origins;
}
