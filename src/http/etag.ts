import { createHash } from 'node:crypto';

/**
 * A strong entity tag for these exact bytes (a string's as UTF-8). A compressed representation is another representation
 * (RFC 9110 §8.8.3), so its tag carries the coding: `"<hash>-gzip"`.
 */
export function strongEtag(bytes: Uint8Array | string, coding?: string): string {
  return entityTag(contentHash(bytes), coding);
}

/** 27 base64url characters (162 bits) of SHA-256. */
export const contentHash = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('base64url').slice(0, 27);

export const entityTag = (hash: string, coding?: string): string => `"${hash}${coding ? `-${coding}` : ''}"`;

/** Whether If-None-Match names this tag, by weak comparison (RFC 9110 §13.1.2), or is `*`. */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === opaque);
}

/** The tag of a compressed representation of what `tag` names: `"abc"` → `"abc-gzip"`. */
export const codedTag = (tag: string, coding?: string): string => (coding ? tag.replace(/"$/, `-${coding}"`) : tag);
