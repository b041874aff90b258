import { conflict } from '../domain/shared/errors.ts';

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * Where the links the API hands out (a reset link, a calendar feed) lead: PUBLIC_URL when it is set. Without it,
 * only a request to this machine's own loopback address may name the host, since anyone can send any Host header
 * and a link to their own host would carry the token to them.
 */
export function linkOrigin(publicUrl: string | undefined, https: boolean, host: string | undefined): string {
  if (publicUrl) return publicUrl;
  if (host && LOOPBACK.test(host)) return `${https ? 'https' : 'http'}://${host}`;
  throw conflict(
    'public_url_unset',
    "Medora hands out links only to its PUBLIC_URL, which is not set: set PUBLIC_URL to the clinic's address",
  );
}
