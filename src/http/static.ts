import type { Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { MIN_COMPRESSED_BYTES, negotiateEncoding } from './compress.ts';
import { contentHash, entityTag, ifNoneMatchMatches } from './etag.ts';
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
 * Serves the built UI: a file when one matches, otherwise the page the build wrote for the UI's route the path
 * matches (app-routes.json: its chunks preloaded, its stylesheet alone blocking), or with 404 the not-found page
 * when the path is none of the UI's routes, so crawlers and scanners see the truth while a person still sees
 * the app's not-found page. A UI built without that list answers every path with index.html.
 * Hashed files under /assets never change, so browsers keep them for a year; everything else is revalidated
 * (no-cache) against a strong ETag, so a new release is seen and an unchanged shell costs a 304. Text over ~1 KB goes
 * gzipped to a browser that accepts it, so the UI arrives at its measured weight without a compressing proxy in front.
 * `pageHead` goes at the end of every page's <head>: what this server knows at start-up and the build did not.
 */
export async function serveStatic(
  root: string,
  path: string,
  req: { headers: IncomingHttpHeaders },
  res: ServerResponse,
  opts: { headOnly: boolean; pageHead: string },
): Promise<void> {
  const found = await findFile(root, path);
  if (!found) {
    const missingAsset = path.startsWith('/assets/');
    res.writeHead(missingAsset ? 404 : 503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(missingAsset ? 'Not found\n' : 'The web UI is not built yet. Run "npm run build" (or "make start").\n');
    return;
  }
  const { file, info } = found;
  const page = found.shell ? await appPage(root, path) : undefined;
  const type = extname(file);
  const status = page?.status ?? 200;
  const version = page?.version ?? `${info.size}:${info.mtimeMs}`;
  const source = found.shell
    ? {
        key: `${page?.key ?? 'index'}@${root}#${opts.pageHead}`,
        version,
        bytes: async () => withHead(page?.html ?? (await readFile(file)), opts.pageHead),
      }
    : { key: file, version, bytes: () => readFile(file) };
  const variant = await representation(source.key, source.version, source.bytes);
  const compressible = COMPRESSIBLE.has(type) && variant.size >= MIN_COMPRESSED_BYTES;
  const coding = compressible ? negotiateEncoding(req.headers['accept-encoding'], ['gzip']) : undefined;
  const etag = entityTag(variant.hash, coding);
  const headers = {
    'cache-control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(compressible && { vary: 'accept-encoding' }),
    // Only a page that is there is worth revalidating; the not-found page is answered anew.
    ...(status === 200 && { etag }),
  };
  if (status === 200 && ifNoneMatchMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const body = coding ? await variant.gzip() : await variant.identity();
  res.writeHead(status, {
    ...headers,
    'content-type': CONTENT_TYPES[type] ?? 'application/octet-stream',
    'content-length': body.length,
    ...(coding && { 'content-encoding': coding }),
  });
  res.end(opts.headOnly ? undefined : body);
}

const withHead = (html: Buffer, head: string) =>
  head ? Buffer.from(html.toString('utf8').replace('</head>', `${head}</head>`)) : html;

const compressGzip = promisify(gzip);

/** A file or page as sent: its bytes when asked, their hash for the ETag, and its gzipped bytes once asked for. */
interface Representation {
  size: number;
  hash: string;
  identity: () => Promise<Buffer>;
  gzip: () => Promise<Buffer>;
}

/** Each body is hashed and compressed once per version (a rebuild changes a file's size or time). */
const representations = new Map<string, { version: string; representation: Promise<Representation> }>();

async function representation(key: string, version: string, content: () => Promise<Buffer>): Promise<Representation> {
  const cached = representations.get(key);
  if (cached?.version === version) return cached.representation;
  const made = content().then((bytes): Representation => {
    let gzipped: Promise<Buffer> | undefined;
    return {
      size: bytes.length,
      hash: contentHash(bytes),
      // Files stay on disk (only their hash is kept); a page is in memory already.
      identity: () => content(),
      gzip: () => (gzipped ??= compressGzip(bytes, { level: 9 })),
    };
  });
  representations.set(key, { version, representation: made });
  made.catch(() => representations.delete(key));
  return made;
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

/** The pages app-routes.json holds, as the build wrote them (see scripts/build.ts). */
interface AppPages {
  version: string;
  routes: { pattern: RegExp; html: Buffer }[];
  notFound: Buffer;
}

const appPagesCache = new Map<string, { version: string; pages: Promise<AppPages | undefined> }>();

/** Read again only when the build has written the list anew. */
async function appPages(root: string): Promise<AppPages | undefined> {
  const file = join(root, 'app-routes.json');
  const info = await stat(file).catch(() => undefined);
  if (!info) return undefined;
  const version = `${info.size}:${info.mtimeMs}`;
  const cached = appPagesCache.get(root);
  if (cached?.version === version) return cached.pages;
  const pages = readFile(file, 'utf8').then((text) => {
    const { routes, notFound } = JSON.parse(text) as { routes: { pattern: string; html: string }[]; notFound: string };
    return {
      version,
      routes: routes.map((route) => ({ pattern: routeRegExp(route.pattern), html: Buffer.from(route.html) })),
      notFound: Buffer.from(notFound),
    };
  });
  appPagesCache.set(root, { version, pages });
  return pages;
}

/**
 * The page for a path of the UI: the first route whose pattern (`/user/patient/doctors/:id`) matches it as the
 * client router does (case-insensitive, a trailing slash allowed), else the not-found page with 404.
 * Undefined when the UI was built without the list: index.html then answers every path.
 */
async function appPage(
  root: string,
  path: string,
): Promise<{ html: Buffer; status: number; key: string; version: string } | undefined> {
  const pages = await appPages(root);
  if (!pages) return undefined;
  const index = pages.routes.findIndex((route) => route.pattern.test(path));
  const route = pages.routes[index];
  const { version } = pages;
  return route
    ? { html: route.html, status: 200, key: String(index), version }
    : { html: pages.notFound, status: 404, key: 'not-found', version };
}

const routeRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/\/$/, '')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[a-z]+/gi, '[^/]+')}/?$`,
    'i',
  );

async function fileAt(file: string): Promise<{ file: string; info: Stats } | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? { file, info } : undefined;
  } catch {
    return undefined;
  }
}
