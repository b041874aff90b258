import type { IncomingHttpHeaders } from 'node:http';
import type { Actor, Role } from '../domain/shared/actor.ts';
import { forbidden } from '../domain/shared/errors.ts';
import { HttpError } from './errors.ts';

/** `'/api/doctors/{id}/schedule'` → `'id'`: a route's parameters are known from its path. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
export type PathParams<P extends string> = { [Name in ParamNames<P>]: string };

export interface RequestContext<Params = Record<string, string>> {
  params: Params;
  query: Record<string, string>;
  /** The raw query string, for parameters that repeat (FHIR's `date=ge…&date=le…`). */
  search?: string;
  body: unknown;
  /** The signed-in user; present on every route that names a role. */
  actor: Actor;
  /** The session token, from the Authorization header or the browser's cookie. */
  token?: string;
  /** Where the token came from: a sign-in through the cookie answers with a cookie, one through a token with a token. */
  session?: 'cookie' | 'bearer';
  /** Whether the client reached Medora over HTTPS (directly, or at a trusted proxy). */
  https: boolean;
  headers: IncomingHttpHeaders;
  ip: string;
  requestId: string;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler<Params = Record<string, string>> = (ctx: RequestContext<Params>) => Promise<Answer>;
export type PublicHandler<Params = Record<string, string>> = (
  ctx: Omit<RequestContext<Params>, 'actor'>,
) => Promise<Answer>;
/** Who may call: nobody signed in needed, any signed-in user, or the listed roles. */
export type Access = 'public' | 'user' | Role | Role[];

export interface Route {
  method: string;
  /** As written in routes.ts, `{name}` for each parameter. */
  path: string;
  pattern: RegExp;
  /** The path up to its first parameter: a request path that does not start with it cannot match. */
  prefix: string;
  /** Whether the path has parameters; one without matches only itself. */
  parameterized: boolean;
  access: Access;
  /** The route starts a browser session in a cookie, so it is refused from other sites like a cookie's writes. */
  setsCookie: boolean;
  /** The route may change who a session belongs to (an account, its role, its patient or doctor). */
  changesAccounts: boolean;
  /** The handler gets the body's bytes as sent (a Uint8Array), not parsed: a signature is over exactly those. */
  rawBody: boolean;
  handler: Handler;
}

/** `/api/doctors/{id}` → a regex with a named group per parameter. */
export function route<P extends string>(
  method: string,
  path: P,
  access: 'public',
  handler: PublicHandler<PathParams<P>>,
): Route;
export function route<P extends string>(
  method: string,
  path: P,
  access: Exclude<Access, 'public'>,
  handler: Handler<PathParams<P>>,
): Route;
export function route<P extends string>(
  method: string,
  path: P,
  access: Access,
  handler: Handler<PathParams<P>>,
): Route {
  const source = path.replace(/[.+?^$()[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  const parameterized = path.includes('{');
  const prefix = parameterized ? path.slice(0, path.indexOf('{')) : path;
  // The pattern has a named group for each parameter of `path`, so a match always carries them all.
  return {
    method,
    path,
    pattern: new RegExp(`^${source}$`),
    prefix,
    parameterized,
    access,
    setsCookie: false,
    changesAccounts: false,
    rawBody: false,
    handler: handler as Handler,
  };
}

/** A public route that signs the browser in: it answers with the session cookie. */
export const cookieSignIn = (route: Route): Route => ({ ...route, setsCookie: true });

/** A route that reads its body as bytes, as a webhook whose signature covers them. */
export const rawBody = (route: Route): Route => ({ ...route, rawBody: true });

/**
 * A route whose writes may change what a server remembers of a session, so the answering server forgets that
 * at once instead of when the database's notice reaches it a moment later.
 */
export const accountChange = (route: Route): Route => ({ ...route, changesAccounts: true });

/**
 * The routes indexed for `match`, which answers as a walk of the table in order would (the first route whose path and
 * method fit) without walking the table of two hundred routes, which cost a cheap read several µs: every path a route
 * spells out is looked up with all the routes that match it, in table order; any other path is compared only with the
 * routes whose prefix spells out its first two segments (`/api/doctors/{id}` under `/api/doctors`).
 */
export interface RouteTable {
  byPath: Map<string, Route[]>;
  bySegments: Map<string, Route[]>;
  /** Routes with parameters whose prefix spells out fewer than two segments: any path may match them. */
  wide: Route[];
}

/** `/api/doctors/7` → `/api/doctors`: a path up to its third slash, the part a route's prefix must spell out. */
function twoSegments(path: string): string | undefined {
  const third = path.indexOf('/', path.indexOf('/', 1) + 1);
  return third < 0 ? undefined : path.slice(0, third);
}

export function routeTable(routes: Route[]): RouteTable {
  const parameterized = routes.filter((route) => route.parameterized);
  const wide = parameterized.filter((route) => twoSegments(route.prefix) === undefined);
  const bySegments = new Map<string, Route[]>();
  for (const route of parameterized) {
    const key = twoSegments(route.prefix);
    if (key !== undefined) bySegments.set(key, []);
  }
  for (const [key, bucket] of bySegments)
    bucket.push(...parameterized.filter((route) => wide.includes(route) || twoSegments(route.prefix) === key));
  const byPath = new Map<string, Route[]>();
  for (const { path } of routes)
    if (!path.includes('{'))
      byPath.set(
        path,
        routes.filter((route) => (route.parameterized ? route.pattern.test(path) : route.path === path)),
      );
  return { byPath, bySegments, wide };
}

/** The route for a method and path: 404 when no path matches, 405 with Allow when only the method is wrong. */
export function match(
  table: RouteTable,
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } {
  const spelled = table.byPath.get(path);
  const key = spelled ? undefined : twoSegments(path);
  const candidates = spelled ?? ((key !== undefined && table.bySegments.get(key)) || table.wide);
  let allowed: Set<string> | undefined;
  for (const candidate of candidates) {
    let found: RegExpExecArray | null = null;
    if (candidate.parameterized) {
      if (!path.startsWith(candidate.prefix)) continue;
      found = candidate.pattern.exec(path);
      if (!found) continue;
    }
    if (candidate.method === method || (method === 'HEAD' && candidate.method === 'GET')) {
      return { route: candidate, params: found?.groups ? decodeParams(found.groups) : {} };
    }
    allowed ??= new Set();
    allowed.add(candidate.method);
    // HEAD is answered wherever GET is (above), so it is allowed there too (RFC 9110 §9.3.2).
    if (candidate.method === 'GET') allowed.add('HEAD');
  }
  if (allowed)
    throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed here`, {
      Allow: [...allowed].join(', '),
    });
  throw new HttpError(404, 'not_found', `No API route ${path}`);
}

function decodeParams(groups: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  try {
    for (const name in groups) {
      const value = groups[name] ?? '';
      params[name] = value.includes('%') ? decodeURIComponent(value) : value;
    }
  } catch {
    throw new HttpError(400, 'malformed_url', 'The address has a malformed percent-escape');
  }
  return params;
}

export function needsSignIn(access: Access): boolean {
  return access !== 'public';
}

/** Wrong role → 403; the caller has already answered 401 for a missing or dead token. */
export function checkRole(access: Access, actor: Actor): void {
  if (access === 'public' || access === 'user') return;
  const roles = Array.isArray(access) ? access : [access];
  if (!roles.includes(actor.role)) throw forbidden('Your account may not use this part of Medora');
}
