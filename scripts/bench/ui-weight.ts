import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** What esbuild's metafile says about each output file (the part the bench reads). */
export interface BuildOutputs {
  [file: string]: { entryPoint?: string; imports: { path: string; kind: string }[]; cssBundle?: string };
}

/** The lazy route modules (src/web/routes.tsx) a page loads on top of index.html's entry. */
export const PAGES: Record<string, string[]> = {
  '/': ['src/web/pages/public/landing-page.tsx'],
  '/login': ['src/web/pages/public/login-page.tsx'],
  '/user/patient': ['src/web/components/app-shell.tsx', 'src/web/pages/patient/appointments-page.tsx'],
};

export interface PageWeight {
  page: string;
  files: string[];
  jsBytes: number;
  jsGzipBytes: number;
  cssBytes: number;
  cssGzipBytes: number;
}

/**
 * The files a page makes the browser download: what index.html names, then for the entry and each of the
 * page's lazy modules the output chunk and everything it imports statically (dynamic imports wait for
 * their own page). Paths are as the metafile spells them, relative to the project root.
 */
export function pageFiles(outputs: BuildOutputs, htmlFiles: string[], lazyModules: string[]): string[] {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const output = outputs[file];
    if (!output) return;
    if (output.cssBundle) files.add(output.cssBundle);
    for (const imported of output.imports) if (imported.kind === 'import-statement') visit(imported.path);
  };
  htmlFiles.forEach(visit);
  for (const module of lazyModules) {
    const chunk = Object.entries(outputs).find(([, output]) => output.entryPoint === module)?.[0];
    if (!chunk) throw new Error(`the build has no chunk for ${module}; has routes.tsx changed?`);
    visit(chunk);
  }
  return [...files].sort();
}

/** The scripts and stylesheets index.html links, as metafile paths (`dist/web/…`). */
export function htmlAssets(html: string): string[] {
  const found = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\brel="stylesheet"[^>]*\bhref)="(\/[^"]+)"/g)].map(
    (m) => m[1],
  );
  return found.map((url) => `dist/web${url}`);
}

/** Gzip (level 6, what servers and CDNs use by default) of each page's JS and CSS, from the built UI. */
export function measureUiWeight(root: string): PageWeight[] {
  const metaPath = join(root, 'dist/web-meta.json');
  if (!existsSync(metaPath)) throw new Error('dist/web-meta.json is missing: build the UI first (npm run build)');
  const outputs = (JSON.parse(readFileSync(metaPath, 'utf8')) as { outputs: BuildOutputs }).outputs;
  const html = htmlAssets(readFileSync(join(root, 'dist/web/index.html'), 'utf8'));
  return Object.entries(PAGES).map(([page, modules]) => {
    const files = pageFiles(outputs, html, modules);
    const weight: PageWeight = { page, files, jsBytes: 0, jsGzipBytes: 0, cssBytes: 0, cssGzipBytes: 0 };
    for (const file of files) {
      const bytes = readFileSync(join(root, file));
      const gzipped = gzipSync(bytes, { level: 6 }).length;
      if (file.endsWith('.css')) {
        weight.cssBytes += bytes.length;
        weight.cssGzipBytes += gzipped;
      } else if (file.endsWith('.js')) {
        weight.jsBytes += bytes.length;
        weight.jsGzipBytes += gzipped;
      }
    }
    return weight;
  });
}
