import { isValidTimeZone } from './domain/shared/clock.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  clinicTz: string;
  clinicName: string;
  seedDemo: boolean;
  trustProxy: boolean;
}

/** Reads the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const clinicTz = env.CLINIC_TZ || Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!isValidTimeZone(clinicTz)) throw new Error(`CLINIC_TZ must be an IANA time zone such as Europe/Berlin, got "${clinicTz}"`);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || undefined,
    clinicTz,
    clinicName: env.CLINIC_NAME || 'Medora Clinic',
    seedDemo: env.SEED_DEMO !== '0',
    trustProxy: env.TRUST_PROXY === '1',
  };
}
