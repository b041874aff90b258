import { readAutoReleaseDays } from './domain/lab/reports.ts';
import { availableParallelism } from 'node:os';
import { isValidTimeZone } from './domain/shared/clock.ts';
import { DEFAULT_LOCALE, supportedLocale } from './domain/shared/date-format.ts';
import { DEFAULT_TIMEOUTS, type DbTimeouts } from './db/timeouts.ts';
import { DEFAULT_BOOKING_LIMITS, type BookingLimits } from './domain/scheduling/ports.ts';
import type { Role } from './domain/shared/actor.ts';
import { DEFAULT_REMINDER_HOURS } from './domain/notifications/templates.ts';
import { DEFAULT_WAITLIST_HOLD_MINUTES } from './domain/scheduling/waitlist.ts';
import { DEFAULT_ANONYMOUS_RETENTION_DAYS } from './domain/audit/audit.ts';
import { DEFAULT_SEND_CONCURRENCY, DEFAULT_SEND_TIMEOUT_MS } from './domain/notifications/delivery.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** The role that owns the tables, for migrations only; `databaseUrl` is then an application role of its own. */
  databaseOwnerUrl?: string;
  /** Connections each process keeps to DATABASE_URL. */
  databasePoolSize: number;
  clinicTz: string;
  /** RESULTS_AUTO_RELEASE_DAYS: days after sign-off a lab report releases itself to the patient; null (the default) never. */
  resultsAutoReleaseDays: number | null;
  /** BILL_MEDICINES=1: each dose given on a ward adds a bill line at the formulary's price; off by default. */
  billMedicines: boolean;
  /** How dates and times read on screens, in e-mails and on printed pages (a BCP 47 tag: en-US, en-GB, de-DE). */
  clinicLocale: string;
  clinicName: string;
  /** Printed with the clinic's name on receipts and invoices; empty when unset. */
  clinicAddress: string;
  clinicPhone: string;
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
  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL))
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${env.SMTP_URL}"`);
  return {
    port,
    host,
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || undefined,
    databasePoolSize,
    clinicTz,
    resultsAutoReleaseDays: readAutoReleaseDays(env.RESULTS_AUTO_RELEASE_DAYS),
    billMedicines: ['1', 'true', 'yes'].includes((env.BILL_MEDICINES ?? '').trim().toLowerCase()),
    clinicLocale,
    clinicName: env.CLINIC_NAME || 'Medora Clinic',
    clinicAddress: env.CLINIC_ADDRESS?.trim() ?? '',
    clinicPhone: env.CLINIC_PHONE?.trim() ?? '',
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
  };
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
