import { AssertionError } from 'node:assert';
import type { AddressInfo } from 'node:net';
import type { App } from '../app.ts';
import type { Db } from '../db/db.ts';
import { fixedClock, systemClock, type Clock } from '../domain/shared/clock.ts';
import { createMedoraServer } from '../http/server.ts';
import { closeGracefully } from '../http/shutdown.ts';
import { apiRoutes } from '../http/routes.ts';
import { observeContract, type ContractObserver } from './contract-observer.ts';
import type { TestDatabase } from './test-db.ts';
import type { Role } from '../domain/shared/actor.ts';
import type { StripeSettings } from '../stripe-card-checkout.ts';
import { hearingOf } from './hearing.ts';
import { makeTestApp, TEST_TZ } from './test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: tests read an answer's fields untyped; the OpenAPI document checks each answer at run time
export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

interface ApiOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestServer {
  app: App;
  /** The database under `app`, for a test's fixtures and checks in SQL. */
  db: Db;
  url: string;
  /** The PostgreSQL database's URL, for a second instance on the same database (undefined on PGlite). */
  databaseUrl?: string;
  /** fetch against the server: JSON in and out, an optional bearer token; an answer that breaks the OpenAPI document throws. */
  // biome-ignore lint/suspicious/noExplicitAny: as in ApiAnswer
  api<T = any>(method: string, path: string, opts?: ApiOptions): Promise<ApiAnswer<T>>;
  /** The check of every answer against the OpenAPI document, for a test that sends its own requests. */
  contract: ContractObserver;
  close(): Promise<void>;
}

/**
 * The real server on port 0 over a fresh migrated database of `target`. Every /api answer it writes is checked
 * against the OpenAPI document: `api()` throws at once, and close() throws what answers to a test's own fetch broke.
 */
export async function startTestServer(
  target: TestDatabase,
  opts: {
    clock?: Clock;
    clinicTz?: string;
    clinicName?: string;
    clinicAddress?: string;
    clinicPhone?: string;
    /** Online card payments through Stripe (a stand-in's address as `apiUrl`); none turns them off. */
    stripe?: StripeSettings;
    bankTransferDetails?: string;
    requireMfa?: Role[];
    billMedicines?: boolean;
    log?: (line: string) => void;
    fhirCorsOrigins?: string[];
    /**
     * For a test of what one instance keeps in its memory (the sessions it remembers): no second instance through
     * PgBouncer, whose requests would find the other's memory.
     */
    oneInstance?: boolean;
  } = {},
): Promise<TestServer> {
  const database = await target.open();
  const hearing = hearingOf(database.db);
  const app = makeTestApp(hearing.db, { ...opts, clock: opts.clock ?? systemClock });
  // Behind one trusted proxy, so a test can sign up many patients, each from an address of their own.
  const server = createMedoraServer(app, {
    log: opts.log ?? (() => {}),
    trustProxy: 1,
    fhirCorsOrigins: opts.fhirCorsOrigins,
  });
  const contract = observeContract(server, apiRoutes(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // So a test that relies on a session being remembered does not meet one asked for before the server could.
  await hearing.live;
  // Through PgBouncer (test-db.ts), a second instance on the same database answers every other request of `api()`.
  const second =
    database.anotherInstance && !opts.oneInstance
      ? await secondInstance(await database.anotherInstance(), opts)
      : undefined;
  const instances = [{ url, contract }, ...(second ? [second] : [])];
  let turn = 0;
  return {
    app,
    db: database.db,
    url,
    databaseUrl: database.url,
    contract,
    api: async <T>(
      method: string,
      path: string,
      { token, body, headers = {} }: ApiOptions = {},
    ): Promise<ApiAnswer<T>> => {
      const isForm = body instanceof FormData;
      const instance = instances[turn++ % instances.length] ?? { url, contract };
      const res = await fetch(instance.url + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
          ...sameOrigin(headers, url, instance.url),
        },
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {}
      const complaint = instance.contract.take(res.headers.get('x-request-id'));
      if (complaint) throw complaint;
      return { status: res.status, body: parsed as T, headers: res.headers };
    },
    close: async () => {
      await closeGracefully(server, 1000);
      if (second) await closeGracefully(second.server, 1000);
      await database.drop();
      const broken = instances.flatMap((instance) => instance.contract.untaken());
      if (broken.length > 0)
        throw new AssertionError({
          message: `${broken.length} answers broke the OpenAPI document:\n\n${broken.map((error) => error.message).join('\n\n')}`,
        });
    },
  };
}

/**
 * A load balancer hands each instance the Host the browser used, so the browser's Origin matches it whichever
 * instance answers. fetch cannot set Host: the Origin a test gives for the first instance's address is given as the
 * address of the instance the request goes to instead, scheme and all; any other Origin is left as it is.
 */
function sameOrigin(headers: Record<string, string>, publicUrl: string, instanceUrl: string): Record<string, string> {
  const { origin } = headers;
  if (origin === undefined || instanceUrl === publicUrl) return headers;
  const asSent = URL.canParse(origin) ? new URL(origin) : undefined;
  if (asSent?.host !== new URL(publicUrl).host) return headers;
  asSent.host = new URL(instanceUrl).host;
  return { ...headers, origin: asSent.origin };
}

/** Another server on the same database, as a second instance behind a load balancer is. */
async function secondInstance(db: Db, opts: Parameters<typeof startTestServer>[1] = {}) {
  const hearing = hearingOf(db);
  const app = makeTestApp(hearing.db, { ...opts, clock: opts.clock ?? systemClock });
  const server = createMedoraServer(app, { log: opts.log ?? (() => {}), trustProxy: 1 });
  const contract = observeContract(server, apiRoutes(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await hearing.live;
  return { server, contract, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export { fixedClock, TEST_TZ };

let counter = 0;
let clients = 0;
/** An address of the benchmark range 198.18.0.0/15 per call, as if each sign-up came from another client. */
const nextClientAddress = () => `198.18.${Math.floor(++clients / 250) % 250}.${clients % 250}`;
/** A unique e-mail per call, so tests never collide inside one database. */
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++counter}@example.test`;

export const PASSWORD = 'correct horse battery';

/** Registers a patient through the API and signs in; returns the token and ids. */
export async function signUpPatient(server: TestServer, overrides: Record<string, unknown> = {}) {
  const email = (overrides.email as string) ?? uniqueEmail('patient');
  const registered = await server.api('POST', '/api/patients/register', {
    body: {
      name: 'Pat Tester',
      email,
      password: PASSWORD,
      phone: '+1 555 0101',
      birthdate: '1990-05-17',
      gender: 'female',
      ...overrides,
    },
    headers: { 'x-forwarded-for': nextClientAddress() },
  });
  if (registered.status !== 202)
    throw new Error(`register failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  return { ...(await signIn(server, email)), email };
}

/** Creates an admin through the use case (as `medora admin create` does) and signs in. */
export async function signUpAdmin(server: TestServer) {
  const email = uniqueEmail('admin');
  await server.app.auth.createAdmin({ name: 'Ada Admin', email, password: PASSWORD });
  return { ...(await signIn(server, email)), email };
}

/** A receptionist the admin adds, signed in. */
export async function signUpReceptionist(server: TestServer, admin: { token: string }, name = 'Rita Reception') {
  const email = uniqueEmail('reception');
  const made = await server.api('POST', '/api/admin/receptionists', {
    token: admin.token,
    body: { name, email, password: PASSWORD },
  });
  if (made.status !== 201) throw new Error(`receptionist not made: ${made.status} ${JSON.stringify(made.body)}`);
  return { ...(await signIn(server, email)), email };
}

export async function signIn(server: TestServer, email: string, password = PASSWORD) {
  const login = await server.api('POST', '/api/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  return { token: login.body.token as string, user: login.body.user as { id: number; name: string; email: string } };
}
