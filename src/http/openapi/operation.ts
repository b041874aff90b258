import type { Access } from '../router.ts';
import {
  id,
  isObjectShape,
  keywords,
  ref,
  string,
  type ObjectShape,
  type Schema,
} from '../../domain/shared/wire-schema.ts';

/** One success answer: a JSON body's schema, `null` for none (204, 304), or other media types (CSV, iCalendar, images). */
export type SuccessAnswer =
  | Schema
  | null
  | { description?: string; content: Record<string, Schema>; headers?: Record<string, Schema> };

/** An operation as the paths files write it; `operation()` turns it into OpenAPI's shape with the standard errors. */
export interface OperationSpec {
  summary: string;
  description?: string;
  /** Who may call, exactly as the route in src/http/routes/ says. */
  access: Access;
  /** Path parameters by name; a parameter not given here is a database id (a positive 32-bit integer). */
  params?: Record<string, Schema>;
  /** Query parameters: a use case's query shape (`queryOf`), or parameters by name, all optional. */
  query?: ObjectShape | Record<string, Schema>;
  /** Request headers the operation reads (`Idempotency-Key`, `If-None-Match`). */
  headers?: Record<string, Schema>;
  /** A JSON request body. */
  body?: Schema;
  /** A multipart/form-data request body (uploads). */
  multipart?: Schema;
  /** Success answers by status. */
  answers: Record<number, SuccessAnswer>;
  /** Error statuses this operation answers besides the ones every operation of its kind may (see `standardErrors`). */
  errors?: number[];
}

export interface Operation {
  [field: string]: unknown;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (JSON that does not parse, a malformed percent-escape)',
  401: 'Not signed in, or the session has ended',
  403: 'Signed in with a role that may not do this',
  404: 'No such resource, or not one this user may see',
  409: 'Conflicts with the current state',
  410: 'Gone: the link has expired or was used',
  413: 'The request body is too large',
  415: 'Unsupported media type',
  422: 'Invalid input: `errors` names each field and its problems',
  429: 'Too many attempts: try again later (`Retry-After`)',
  500: 'Internal error (no details)',
  503: 'The database is unreachable, busy or too slow, or the server is stopping (`Retry-After`)',
};

/**
 * The errors any operation may answer, as src/http/api-request.ts answers them whatever the operation reads:
 * 422 for text that cannot be stored in any query; 401/403 when it needs a signed-in user; 400/413 for a body
 * that does not parse or is too large wherever one is read (every method but GET, HEAD and DELETE), 422 for one
 * with text that cannot be stored; 400/404 for a path parameter that does not decode or names nothing.
 */
export function standardErrors(method: string, path: string, spec: OperationSpec): number[] {
  const statuses = [422, 500, 503];
  if (spec.access !== 'public') statuses.push(401, 403);
  if (!['GET', 'HEAD', 'DELETE'].includes(method.toUpperCase())) statuses.push(400, 413);
  if (path.includes('{')) statuses.push(400, 404);
  return statuses;
}

function pathParamsOf(path: string, spec: OperationSpec): Record<string, Schema> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
  return Object.fromEntries(names.map((name) => [name, spec.params?.[name] ?? id()]));
}

function queryParameters(query: OperationSpec['query'] = {}) {
  const required = isObjectShape(query) ? ((keywords(query).required as string[] | undefined) ?? []) : [];
  const properties = isObjectShape(query) ? query.properties : query;
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema,
  }));
}

function successResponse(status: number, answer: SuccessAnswer): Operation {
  const description =
    status === 204 ? 'No content' : status === 304 ? 'Not modified' : status === 201 ? 'Created' : 'OK';
  if (answer === null) return { description };
  if (
    'content' in answer &&
    typeof answer.content === 'object' &&
    answer.content !== null &&
    !('type' in answer) &&
    !('$ref' in answer)
  ) {
    const { content, headers } = answer as {
      content: Record<string, Schema>;
      headers?: Record<string, Schema>;
      description?: string;
    };
    return {
      description: (answer as { description?: string }).description ?? description,
      content: Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }])),
      ...(headers
        ? { headers: Object.fromEntries(Object.entries(headers).map(([name, schema]) => [name, { schema }])) }
        : {}),
    };
  }
  return { description, content: { 'application/json': { schema: answer } } };
}

/** The OpenAPI Operation Object for `method path`, with its access in `x-medora-access` and `security`. */
export function operation(method: string, path: string, tag: string, spec: OperationSpec): Operation {
  const parameters = [
    ...Object.entries(pathParamsOf(path, spec)).map(([name, schema]) => ({ name, in: 'path', required: true, schema })),
    ...queryParameters(spec.query),
    ...Object.entries(spec.headers ?? {}).map(([name, schema]) => ({ name, in: 'header', required: false, schema })),
  ];
  const errors = [...new Set([...standardErrors(method, path, spec), ...(spec.errors ?? [])])].sort((a, b) => a - b);
  const responses: Record<string, Operation> = {};
  for (const [status, answer] of Object.entries(spec.answers))
    responses[status] = successResponse(Number(status), answer);
  // An operation's own answer for an error status (the readiness probe's 503) stands instead of the standard one.
  for (const status of errors) responses[String(status)] ??= { $ref: `#/components/responses/Error${status}` };
  const body = spec.body
    ? { required: true, content: { 'application/json': { schema: spec.body } } }
    : spec.multipart
      ? { required: true, content: { 'multipart/form-data': { schema: spec.multipart } } }
      : undefined;
  return {
    tags: [tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    'x-medora-access': spec.access,
    security: spec.access === 'public' ? [] : [{ bearer: [] }, { session: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

/** The shared error answers of the statuses given, one per status, each the API's one error body. */
export function errorResponses(statuses: ReadonlySet<string>): Record<string, Operation> {
  return Object.fromEntries(
    Object.entries(ERROR_DESCRIPTIONS)
      .filter(([status]) => statuses.has(status))
      .map(([status, description]) => [
        `Error${status}`,
        {
          description,
          ...(status === '503' || status === '429'
            ? { headers: { 'Retry-After': { schema: string({ pattern: '^[0-9]+$' }) } } }
            : {}),
          content: { 'application/json': { schema: ref('Error') } },
        },
      ]),
  );
}

/** A module's operations keyed `'METHOD /path'`, as written in its routes file. */
export type Operations = Record<string, OperationSpec>;
