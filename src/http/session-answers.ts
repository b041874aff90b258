import type { LoginJson, SessionJson } from '../domain/auth/use-cases.ts';
import type { Answer } from './router.ts';
import { clearSessionCookie, setSessionCookie } from './session-cookie.ts';

/** How a client holds its session: the browser in the HttpOnly cookie, API and CLI clients as a bearer token. */
export type Holder = { kind: 'cookie'; https: boolean; now: Date } | { kind: 'bearer' };

/** A sign-in's answer: a new session goes into the cookie for the browser, whose page never sees the token. */
export function sessionAnswer<T extends LoginJson>(answer: T, holder: Holder): Answer {
  if (holder.kind === 'bearer' || !('token' in answer)) return { body: answer };
  const { token, ...rest } = answer as T & SessionJson;
  const cookie = setSessionCookie(token, {
    https: holder.https,
    persistent: rest.persistent,
    expiresAt: new Date(rest.expires_at),
    now: holder.now,
  });
  return { body: rest, headers: { 'set-cookie': cookie } };
}

/** A signed-out answer; the browser's cookie is cleared with it. */
export function signedOutAnswer(message: string, holder: Holder): Answer {
  return {
    body: { message },
    headers: holder.kind === 'cookie' ? { 'set-cookie': clearSessionCookie(holder.https) } : {},
  };
}
