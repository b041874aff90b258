import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

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

/** Text compresses to a quarter or less; images are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map', '.txt']);

/**
 * Serves the built UI: a file when one matches, otherwise index.html so the client router takes the path,
 * with 404 when the path is none of the UI's routes (app-routes.json, written by the build) so crawlers and
 * scanners see the truth while a person still sees the app's not-found page.
 * Hashed files under /assets never change, so browsers keep them for a year. Text goes gzipped to a browser
 * that accepts it, so the UI arrives at its measured weight without a compressing proxy in front.
 */
export async function serveStatic(root: string, path: string, req: { headers: IncomingHttpHeaders }, res: ServerResponse, headOnly: boolean): Promise<void> {
  const found = await findFile(root, path);
  if (!found) {
    const missingAsset = path.startsWith('/assets/');
    res.writeHead(missingAsset ? 404 : 503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(missingAsset ? 'Not found\n' : 'The web UI is not built yet. Run "npm run build" (or "make start").\n');
    return;
  }
  const { file, info } = found;
  const status = found.shell && !(await isAppRoute(root, path)) ? 404 : 200;
  const compressible = COMPRESSIBLE.has(extname(file));
  const gzipped = compressible && acceptsGzip(req.headers['accept-encoding']);
  const body = gzipped ? await gzippedFile(file, info) : await readFile(file);
  const immutable = path.startsWith('/assets/');
  res.writeHead(status, {
    'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(compressible && { vary: 'accept-encoding' }),
    ...(gzipped && { 'content-encoding': 'gzip' }),
  });
  res.end(headOnly ? undefined : body);
}

/** `gzip` listed in Accept-Encoding, unless with q=0. */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((item) => {
    const [coding, ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

const compressGzip = promisify(gzip);
/** Each file is compressed once per version on disk (a rebuild changes its size or time). */
const gzipCache = new Map<string, { version: string; body: Promise<Buffer> }>();

async function gzippedFile(file: string, info: Stats): Promise<Buffer> {
  const version = `${info.size}:${info.mtimeMs}`;
  const cached = gzipCache.get(file);
  if (cached?.version === version) return cached.body;
  const body = readFile(file).then((content) => compressGzip(content, { level: 9 }));
  gzipCache.set(file, { version, body });
  body.catch(() => gzipCache.delete(file));
  return body;
}

/** What answers a path: a file of the UI, or the app shell (index.html) for the client router. */
interface Found {
  file: string;
  info: Stats;
  shell?: true;
}

async function findFile(root: string, path: string): Promise<Found | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    decoded = '/';
  }
  const candidate = normalize(join(root, decoded));
  const inside = candidate.startsWith(normalize(root + sep));
  const asked = inside ? await fileAt(candidate) : undefined;
  if (asked) return asked;
  // An unknown asset is a real 404 for the browser, not the app shell.
  if (decoded.startsWith('/assets/')) return undefined;
  const shell = await fileAt(join(root, 'index.html'));
  return shell && { ...shell, shell: true };
}

/**
 * Whether a route pattern of the UI (`/user/patient/doctors/:id`) matches the path, as the client router matches
 * it: case-insensitive, a trailing slash allowed. A UI built without the list has every path as its own.
 */
async function isAppRoute(root: string, path: string): Promise<boolean> {
  let patterns: unknown;
  try {
    patterns = JSON.parse(await readFile(join(root, 'app-routes.json'), 'utf8'));
  } catch {
    return true;
  }
  return Array.isArray(patterns) && patterns.some((pattern) => typeof pattern === 'string' && routeRegExp(pattern).test(path));
}

const routeRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/\/$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/]+')}/?$`, 'i');

async function fileAt(file: string): Promise<{ file: string; info: Stats } | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? { file, info } : undefined;
  } catch {
    return undefined;
  }
}
