import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.ts';
import type { UploadedFile } from '../domain/shared/files.ts';

export const JSON_LIMIT_BYTES = 1024 * 1024;
export const MULTIPART_LIMIT_BYTES = 3 * 1024 * 1024; // one 2 MiB photo and the form's fields

const tooLarge = (limit: number) =>
  new HttpError(413, 'too_large', `The request is larger than ${Math.round(limit / 1024)} KiB`);

/** The body's bytes, refused past `limit`. */
export async function readBody(req: IncomingMessage, limit: number = JSON_LIMIT_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * The request body as a plain object: JSON, urlencoded, or multipart (through the platform's
 * Request.formData(), files as UploadedFile). No body → {}.
 */
export async function parseBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) {
    const raw = await readBody(req, MULTIPART_LIMIT_BYTES);
    let form: FormData;
    try {
      // The original header: the boundary is case-sensitive (browsers' boundaries are mixed case).
      form = await new Request('http://medora.local/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? type },
        body: new Uint8Array(raw),
      }).formData();
    } catch {
      throw new HttpError(400, 'malformed_body', 'The form data could not be read');
    }
    const fields: Record<string, string | UploadedFile> = {};
    for (const [name, value] of form) {
      if (typeof value === 'string') fields[name] = value;
      else if (value.size > 0)
        fields[name] = { filename: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
    }
    return fields;
  }
  const raw = await readBody(req, JSON_LIMIT_BYTES);
  if (raw.length === 0) return {};
  if (type.startsWith('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'malformed_json', 'The request body is not valid JSON');
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return m?.[1];
}

/**
 * The client's address behind `trustedHops` proxies of our own: each appends the address it was reached from to
 * X-Forwarded-For, so the one `trustedHops` places from the right was written by our outermost proxy. Entries
 * further left are whatever the client sent, and are never believed.
 */
export function clientIp(req: IncomingMessage, trustedHops: number): string {
  const socket = req.socket.remoteAddress ?? 'unknown';
  const forwarded = req.headers['x-forwarded-for'];
  if (trustedHops === 0 || typeof forwarded !== 'string') return socket;
  const chain = [...forwarded.split(',').map((hop) => hop.trim()), socket];
  return chain[Math.max(0, chain.length - 1 - trustedHops)] || socket;
}
