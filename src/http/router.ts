import type { IncomingHttpHeaders } from 'node:http';
import type { Actor, Role } from '../domain/shared/actor.ts';
import { forbidden } from '../domain/shared/errors.ts';
import { HttpError } from './errors.ts';

export interface RequestContext {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The signed-in user; present on every route that names a role. */
  actor: Actor;
  token?: string;
  headers: IncomingHttpHeaders;
  ip: string;
  requestId: string;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RequestContext) => Promise<Answer>;
export type PublicHandler = (ctx: Omit<RequestContext, 'actor'>) => Promise<Answer>;
/** Who may call: nobody signed in needed, any signed-in user, or the listed roles. */
export type Access = 'public' | 'user' | Role | Role[];

export interface Route {
  method: string;
  /** As written in routes.ts, `{name}` for each parameter. */
  path: string;
  pattern: RegExp;
  access: Access;
  handler: Handler;
}

/** `/api/doctors/{id}` → a regex with a named group per parameter. */
export function route(method: string, path: string, access: 'public', handler: PublicHandler): Route;
export function route(method: string, path: string, access: Exclude<Access, 'public'>, handler: Handler): Route;
export function route(method: string, path: string, access: Access, handler: Handler): Route {
  const source = path.replace(/[.+?^$()[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  return { method, path, pattern: new RegExp(`^${source}$`), access, handler };
}

/** The route for a method and path: 404 when no path matches, 405 with Allow when only the method is wrong. */
export function match(routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } {
  const allowed = new Set<string>();
  for (const candidate of routes) {
    const found = candidate.pattern.exec(path);
    if (!found) continue;
    if (candidate.method === method || (method === 'HEAD' && candidate.method === 'GET')) {
      return { route: candidate, params: decodeParams(found.groups ?? {}) };
    }
    allowed.add(candidate.method);
  }
  if (allowed.size > 0) throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed here`, { Allow: [...allowed].join(', ') });
  throw new HttpError(404, 'not_found', `No API route ${path}`);
}

function decodeParams(groups: Record<string, string>): Record<string, string> {
  try {
    return Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeURIComponent(value)]));
  } catch {
    throw new HttpError(400, 'malformed_url', 'The address has a malformed percent-escape');
  }
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
