import { describe, it } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig, type Config } from './config.ts';

const pick = ({ backupTime, backupKeep }: Config) => ({ backupTime, backupKeep });

describe('configuration from the environment', () => {
  it('keeps twice the cores as database connections unless told otherwise', () => {
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC' }).databasePoolSize, 2 * availableParallelism());
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: '12' }).databasePoolSize, 12);
  });

  it('lets a write wait longer for a database connection than a read, each as configured', () => {
    const { timeouts } = loadConfig({ CLINIC_TZ: 'UTC' });
    assert.deepEqual([timeouts.acquireMs, timeouts.writeAcquireMs], [3000, 15_000]);
    const set = loadConfig({ CLINIC_TZ: 'UTC', DATABASE_WRITE_ACQUIRE_TIMEOUT_MS: '30000' }).timeouts;
    assert.equal(set.writeAcquireMs, 30_000);
  });

  it('stops with the variable named when a value is wrong', () => {
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: '0' }),
      /DATABASE_POOL_SIZE must be a whole number of connections, got "0"/,
    );
    assert.throws(() => loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: 'many' }), /DATABASE_POOL_SIZE/);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be a port number/);
    assert.throws(() => loadConfig({ CLINIC_TZ: 'Mars/Olympus' }), /CLINIC_TZ must be an IANA time zone/);
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', CLINIC_LOCALE: 'english' }),
      /CLINIC_LOCALE must be a language tag such as en-US or de-DE, got "english"/,
    );
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', BACKUP_TIME: '2:30' }),
      /BACKUP_TIME must be a time of day as HH:MM \(24-hour clock\), got "2:30"/,
    );
    assert.throws(() => loadConfig({ CLINIC_TZ: 'UTC', BACKUP_TIME: '24:00' }), /BACKUP_TIME/);
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', BACKUP_KEEP: '-1' }),
      /BACKUP_KEEP must be a whole number of at least 0, got "-1"/,
    );
  });

  it('prints no clinic address or phone unless told them', () => {
    assert.deepEqual(
      [loadConfig({ CLINIC_TZ: 'UTC' }).clinicAddress, loadConfig({ CLINIC_TZ: 'UTC' }).clinicPhone],
      ['', ''],
    );
    const told = loadConfig({ CLINIC_TZ: 'UTC', CLINIC_ADDRESS: ' 1 Harbour Road ', CLINIC_PHONE: '+1 555 0100' });
    assert.deepEqual([told.clinicAddress, told.clinicPhone], ['1 Harbour Road', '+1 555 0100']);
  });

  it('sends 5 messages at once per mail worker and waits a minute for the mail server, unless told otherwise', () => {
    const mail = ({ outboxConcurrency, smtpTimeoutMs }: Config) => ({ outboxConcurrency, smtpTimeoutMs });
    assert.deepEqual(mail(loadConfig({ CLINIC_TZ: 'UTC' })), { outboxConcurrency: 5, smtpTimeoutMs: 60_000 });
    assert.deepEqual(mail(loadConfig({ CLINIC_TZ: 'UTC', OUTBOX_CONCURRENCY: '1', SMTP_TIMEOUT_MS: '600000' })), {
      outboxConcurrency: 1,
      smtpTimeoutMs: 600_000,
    });
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', OUTBOX_CONCURRENCY: '0' }),
      /OUTBOX_CONCURRENCY must be a whole number of at least 1, got "0"/,
    );
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', SMTP_TIMEOUT_MS: '30' }),
      /SMTP_TIMEOUT_MS must be a whole number of at least 1000/,
    );
  });

  it('backs the embedded database up at 02:30 clinic time and keeps 7, unless told otherwise', () => {
    assert.deepEqual(pick(loadConfig({ CLINIC_TZ: 'UTC' })), { backupTime: '02:30', backupKeep: 7 });
    assert.deepEqual(pick(loadConfig({ CLINIC_TZ: 'UTC', BACKUP_TIME: '23:05', BACKUP_KEEP: '0' })), {
      backupTime: '23:05',
      backupKeep: 0,
    });
  });

  it("migrates as DATABASE_OWNER_URL only beside a DATABASE_URL, and reads the audit keys' files from their variables", () => {
    const roles = ({ databaseUrl, databaseOwnerUrl, auditSigningKeyFile, auditVerifyKeyFile }: Config) => ({
      databaseUrl,
      databaseOwnerUrl,
      auditSigningKeyFile,
      auditVerifyKeyFile,
    });
    assert.deepEqual(roles(loadConfig({ CLINIC_TZ: 'UTC' })), {
      databaseUrl: undefined,
      databaseOwnerUrl: undefined,
      auditSigningKeyFile: undefined,
      auditVerifyKeyFile: undefined,
    });
    const told = {
      CLINIC_TZ: 'UTC',
      DATABASE_URL: 'postgres://app@db/medora',
      DATABASE_OWNER_URL: 'postgres://owner@db/medora',
      AUDIT_SIGNING_KEY_FILE: '/etc/medora/audit.pem',
      AUDIT_VERIFY_KEY_FILE: '/etc/medora/audit.pub',
    };
    assert.deepEqual(roles(loadConfig(told)), {
      databaseUrl: 'postgres://app@db/medora',
      databaseOwnerUrl: 'postgres://owner@db/medora',
      auditSigningKeyFile: '/etc/medora/audit.pem',
      auditVerifyKeyFile: '/etc/medora/audit.pub',
    });
    assert.throws(
      () => loadConfig({ CLINIC_TZ: 'UTC', DATABASE_OWNER_URL: 'postgres://owner@db/medora' }),
      /DATABASE_OWNER_URL is the owner of a PostgreSQL database: set DATABASE_URL/,
    );
  });
  it('talks to PostgreSQL directly, with no replica, unless told of a transaction pooler, a direct URL or a replica', () => {
    const db = ({ databasePooler, databaseDirectUrl, databaseReadUrl, databaseReadMaxLagS }: Config) => ({
      databasePooler,
      databaseDirectUrl,
      databaseReadUrl,
      databaseReadMaxLagS,
    });
    assert.deepEqual(db(loadConfig({ CLINIC_TZ: 'UTC', DATABASE_URL: 'postgres://app@db/medora' })), {
      databasePooler: 'none',
      databaseDirectUrl: undefined,
      databaseReadUrl: undefined,
      databaseReadMaxLagS: 10,
    });
    const told = {
      CLINIC_TZ: 'UTC',
      DATABASE_URL: 'postgres://app@pgbouncer:6432/medora',
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: 'postgres://app@db:5432/medora',
      DATABASE_READ_URL: 'postgres://app@replica:5432/medora',
      DATABASE_READ_MAX_LAG_S: '30',
    };
    assert.deepEqual(db(loadConfig(told)), {
      databasePooler: 'transaction',
      databaseDirectUrl: 'postgres://app@db:5432/medora',
      databaseReadUrl: 'postgres://app@replica:5432/medora',
      databaseReadMaxLagS: 30,
    });
    assert.equal(loadConfig({ ...told, DATABASE_POOLER: 'none' }).databasePooler, 'none');
    assert.equal(loadConfig({ ...told, DATABASE_READ_MAX_LAG_S: '0' }).databaseReadMaxLagS, 0);
  });

  it('refuses a pooler it does not know, a direct URL or a replica without DATABASE_URL, and a lag that is no whole number of seconds', () => {
    const env = { CLINIC_TZ: 'UTC', DATABASE_URL: 'postgres://app@db/medora' };
    for (const pooler of ['session', 'Transaction', 'pgbouncer'])
      assert.throws(
        () => loadConfig({ ...env, DATABASE_POOLER: pooler }),
        new RegExp(`^Error: DATABASE_POOLER must be none or transaction, got "${pooler}"$`),
      );
    for (const name of ['DATABASE_DIRECT_URL', 'DATABASE_READ_URL'])
      assert.throws(
        () => loadConfig({ CLINIC_TZ: 'UTC', [name]: 'postgres://app@db/medora' }),
        new RegExp(`^Error: ${name} goes with DATABASE_URL, which is not set$`),
      );
    for (const lag of ['-1', '2.5', 'ten'])
      assert.throws(
        () => loadConfig({ ...env, DATABASE_READ_MAX_LAG_S: lag }),
        new RegExp(`^Error: DATABASE_READ_MAX_LAG_S must be a whole number of at least 0, got "${lag}"$`),
      );
  });

  it("sends from a valid mailbox by default: PUBLIC_URL's domain, or localhost.localdomain for an address or a bare host", () => {
    const from = (env: Record<string, string>) => loadConfig({ CLINIC_TZ: 'UTC', ...env }).mailFrom;
    assert.equal(from({}), 'no-reply@localhost.localdomain');
    assert.equal(from({ HOST: '0.0.0.0' }), 'no-reply@localhost.localdomain');
    assert.equal(from({ PUBLIC_URL: 'http://[::1]:3000' }), 'no-reply@localhost.localdomain');
    assert.equal(from({ PUBLIC_URL: 'https://clinic.example.org' }), 'no-reply@clinic.example.org');
    assert.equal(from({ PUBLIC_URL: 'https://clinic.example.org', MAIL_FROM: 'desk@example.org' }), 'desk@example.org');
  });

  it('formats dates in en-US unless CLINIC_LOCALE names another locale, spelled as Intl spells it', () => {
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC' }).clinicLocale, 'en-US');
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC', CLINIC_LOCALE: 'en-gb' }).clinicLocale, 'en-GB');
  });
});
