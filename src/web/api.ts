/**
 * The only module that calls fetch. The session rides in its HttpOnly cookie; this turns error bodies into
 * ApiError and ends the session on a 401 to a signed-in call (a failed sign-in is also a 401 and is left to the
 * login page).
 */
import { navigate } from 'wouter/use-browser-location';
import type { ListJson } from '../http/answers.ts';
import type { FieldErrors } from '../domain/shared/errors.ts';
import { endSession, role } from './auth.ts';
import { routes } from './paths.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | undefined>;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // A FormData body (a doctor's photo) sets its own multipart Content-Type with the boundary.
  const isForm = options.body instanceof FormData;
  if (options.body !== undefined && !isForm) headers['Content-Type'] = 'application/json';

  const response = await fetch(withQuery(path, options.query), {
    method,
    headers,
    credentials: 'same-origin',
    signal: options.signal,
    body: options.body === undefined || isForm ? (options.body as FormData | undefined) : JSON.stringify(options.body),
  });
  const body: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (response.ok) return body as T;

  if (response.status === 401 && role.value !== null) {
    endSession();
    navigate(routes.login, { replace: true });
  }
  throw toApiError(response.status, body);
}

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function toApiError(status: number, body: unknown): ApiError {
  const { message, code, errors } = (body ?? {}) as { message?: string; code?: string; errors?: FieldErrors };
  return new ApiError(status, code ?? 'error', message ?? `Request failed (${status})`, errors);
}

export const apiGet = <T>(path: string, query?: Query, signal?: AbortSignal) =>
  request<T>('GET', path, { query, signal });
export const apiPost = <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
  request<T>('POST', path, { body, headers });
export const apiPut = <T>(path: string, body: unknown) => request<T>('PUT', path, { body });
export const apiDelete = <T>(path: string) => request<T>('DELETE', path);

/** A file the API answers (a CSV export), named as its Content-Disposition says. */
async function apiDownload(path: string, query?: Query): Promise<{ blob: Blob; filename: string }> {
  const response = await fetch(withQuery(path, query), { credentials: 'same-origin' });
  if (!response.ok) throw toApiError(response.status, await response.json().catch(() => null));
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  return { blob: await response.blob(), filename };
}

/** Saves what `path` answers as the file its Content-Disposition names. */
export async function downloadFile(path: string, query?: Query): Promise<void> {
  const { blob, filename } = await apiDownload(path, query);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

// A type, not an interface, so that it is a Query too (an interface has no index signature).
export type ListQuery = {
  q: string;
  page: number;
  per_page: number;
};

export interface ListPage<Row> {
  rows: Row[];
  total: number;
  /** More rows than `total` match: the server stops counting ten pages past the one asked for. */
  totalIsLowerBound: boolean;
}

/** One page of a list endpoint, whose answer names its items (`{"appointments": [...], "total": n}`); `query` may add its filters. */
export async function fetchList<Row>(
  path: string,
  itemsKey: string,
  query: ListQuery & Query,
  signal?: AbortSignal,
): Promise<ListPage<Row>> {
  const answer = await apiGet<ListJson<string, Row>>(path, { ...query }, signal);
  const rows = answer[itemsKey];
  if (!rows) throw new Error(`${path} answered without "${itemsKey}"`);
  return { rows, total: answer.total, totalIsLowerBound: answer.total_is_lower_bound };
}

/** The loader of one list endpoint, for a DataTable: `listAt<BillingJson>(endpoints.admin.billings, 'billings')`. */
export const listAt =
  <Row>(path: string, itemsKey: string) =>
  (query: ListQuery, signal?: AbortSignal) =>
    fetchList<Row>(path, itemsKey, query, signal);
