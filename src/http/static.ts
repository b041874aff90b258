import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { ServerResponse } from 'node:http';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the built UI: a file when one matches, otherwise index.html so the client router takes the path.
 * Hashed files under /assets never change, so browsers keep them for a year.
 */
export async function serveStatic(root: string, path: string, res: ServerResponse, headOnly: boolean): Promise<void> {
  const file = await findFile(root, path);
  if (!file) {
    const missingAsset = path.startsWith('/assets/');
    res.writeHead(missingAsset ? 404 : 503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(missingAsset ? 'Not found\n' : 'The web UI is not built yet. Run "npm run build" (or "make start").\n');
    return;
  }
  const body = await readFile(file);
  const immutable = path.startsWith('/assets/');
  res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  res.end(headOnly ? undefined : body);
}

async function findFile(root: string, path: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = '/';
  }
  const candidate = normalize(join(root, decoded));
  const inside = candidate.startsWith(normalize(root + sep));
  if (inside && (await isFile(candidate))) return candidate;
  // An unknown asset is a real 404 for the browser, not the app shell.
  if (decoded.startsWith('/assets/')) return undefined;
  const index = join(root, 'index.html');
  return (await isFile(index)) ? index : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
