import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { HttpError } from './errors.ts';

/**
 * The browser's session lives in an HttpOnly cookie, out of reach of the page's scripts (OWASP HTML5 Security
 * Cheat Sheet); API and CLI clients send a bearer token instead. Over HTTPS the cookie carries the `__Host-`
 * prefix, which the browser accepts only when Secure, for path / and without Domain, so no other site or
 * subdomain can plant one.
 */
const PLAIN_NAME = 'medora_session';
const SECURE_NAME = `__Host-${PLAIN_NAME}`;

/** Whether the client reached us over HTTPS: our own socket, or the outermost trusted proxy's word. */
export function isHttps(req: IncomingMessage, trustProxy: number): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  const forwarded = req.headers['x-forwarded-proto'];
  if (trustProxy === 0 || typeof forwarded !== 'string') return false;
  // Each proxy appends its scheme, as with X-Forwarded-For; the one our outermost proxy saw counts.
  const chain = forwarded.split(',').map((p) => p.trim().toLowerCase());
  return chain[Math.max(0, chain.length - trustProxy)] === 'https';
}

/** The session token in the request's cookie: only the `__Host-` one over HTTPS. */
export function sessionCookie(req: IncomingMessage, https: boolean): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const name = https ? SECURE_NAME : PLAIN_NAME;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/** Set-Cookie for a new session: kept across browser restarts only when remembered, until the session ends. */
export function setSessionCookie(
  token: string,
  opts: { https: boolean; persistent: boolean; expiresAt: Date; now: Date },
): string {
  const parts = [`${opts.https ? SECURE_NAME : PLAIN_NAME}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (opts.https) parts.push('Secure');
  if (opts.persistent)
    parts.push(`Max-Age=${Math.max(0, Math.round((opts.expiresAt.getTime() - opts.now.getTime()) / 1000))}`);
  return parts.join('; ');
}

export function clearSessionCookie(https: boolean): string {
  return `${https ? SECURE_NAME : PLAIN_NAME}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${https ? '; Secure' : ''}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request a browser sent on another site's behalf (CSRF), when it would act through the
 * cookie. The browser says where a request came from in Sec-Fetch-Site, or failing that in Origin; a request
 * with neither did not come from a browser page and has no business using the browser's cookie.
 * SameSite=Lax already keeps the cookie off cross-site POSTs; this also refuses other origins of the same site
 * (another port or subdomain), and browsers that ignore SameSite.
 */
export function refuseCrossSite(req: IncomingMessage, https: boolean): void {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') {
    if (site === 'same-origin' || site === 'none') return;
    throw crossSite();
  }
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin === `${https ? 'https' : 'http'}://${req.headers.host}`) return;
  throw crossSite();
}

const crossSite = () =>
  new HttpError(
    403,
    'cross_site_request',
    'This request came from another site and was refused. Use Medora from its own address.',
  );
