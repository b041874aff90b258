import type { Config } from './config.ts';
import type { Db, Queryable } from './db/db.ts';
import type { Clock } from './domain/shared/clock.ts';
import * as authUseCases from './domain/auth/use-cases.ts';
import type { AuthDeps } from './domain/auth/ports.ts';
import { accountStore, loginAttemptStore, sessionStore } from './db/auth.pg.ts';
import { auditLog } from './db/audit.pg.ts';
import { argon2Hasher, bearerTokens } from './security.ts';
import { fileStore } from './db/files.pg.ts';

export type AppConfig = Pick<Config, 'clinicTz' | 'clinicName'>;

/** Binds a module's use cases to their dependencies: `(deps, ...args) => r` becomes `(...args) => r`. */
type Bound<M> = {
  [K in keyof M]: M[K] extends (deps: any, ...args: infer A) => infer R ? (...args: A) => R : never;
};
function bind<M extends Record<string, unknown>, D>(module: M, deps: D): Bound<M> {
  return Object.fromEntries(
    Object.entries(module)
      .filter(([, f]) => typeof f === 'function')
      .map(([name, f]) => [name, (...args: unknown[]) => (f as (...a: unknown[]) => unknown)(deps, ...args)]),
  ) as Bound<M>;
}

/** The one composition root: every HTTP route and CLI command reaches the use cases through this. */
export function makeApp({ db, clock, config }: { db: Db; clock: Clock; config: AppConfig }) {
  const timeZone = config.clinicTz;
  const authDeps = (q: Queryable): AuthDeps & { timeZone: string } => ({
    accounts: accountStore(q),
    sessions: sessionStore(q),
    loginAttempts: loginAttemptStore(q),
    hasher: argon2Hasher,
    tokens: bearerTokens,
    audit: auditLog(q),
    clock,
    timeZone,
  });

  return {
    db,
    clock,
    config,
    auth: bind(authUseCases, authDeps(db)),
    files: fileStore(db),
  };
}

export type App = ReturnType<typeof makeApp>;
