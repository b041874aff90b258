/**
 * Bundles the web UI into dist/web: hashed, code-split ES modules plus the two stylesheets of the spec's
 * path rule, and the static files of src/web/public. Then the command line into dist/cli (scripts/cli-bundle.ts).
 * dist/web/app-routes.json holds, for each pattern of the UI's route table (src/web/route-table.ts), the page
 * the server sends for it: `modulepreload` links for every chunk its first screen runs, so the browser fetches
 * them all at once after the HTML, and only the stylesheet the path uses blocks rendering (the other waits with
 * media="not all"). Any other path answers 404 with the not-found page's HTML, which is also index.html.
 * `--watch` rebuilds only the UI, on change (npm run dev; `make dev` runs the whole build first).
 */
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { context, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { buildCli, CLI_BUNDLE } from './cli-bundle.ts';
import { usesAppStylesheet } from '../src/web/paths.ts';
import { appRoutes, notFoundPage, pageSource, SHELL_SOURCE } from '../src/web/route-table.ts';
import { pageFiles, type BuildOutputs } from './bench/ui-weight.ts';

const root = path.resolve(import.meta.dirname, '..');
const webSrc = path.join(root, 'src/web');
const outDir = path.join(root, 'dist/web');
const assetsDir = path.join(outDir, 'assets');
/** Which sources went into which output file; the browser tests read it to prove what a page downloads. */
const metafilePath = path.join(root, 'dist/web-meta.json');

const watch = process.argv.includes('--watch');

const entryPoints = {
  main: path.join(webSrc, 'main.tsx'),
  'main-styles': path.join(webSrc, 'styles/main.css'),
  'app-styles': path.join(webSrc, 'styles/signed-in.css'),
};

const options: BuildOptions = {
  entryPoints,
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
  jsx: 'automatic',
  minify: !watch,
  sourcemap: watch ? 'linked' : false,
  entryNames: 'assets/[name]-[hash]',
  chunkNames: 'assets/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  define: { 'process.env.NODE_ENV': JSON.stringify(watch ? 'development' : 'production') },
  metafile: true,
  logLevel: 'info',
  plugins: [signedInSharedPlugin(), finishPlugin()],
};

const SIGNED_IN_SHARED = path.join(webSrc, 'components/signed-in-shared.ts');

/**
 * The app shell and every signed-in page import src/web/components/signed-in-shared.ts (why: that file's comment),
 * added here so no page has to name a module it does not use.
 */
function signedInSharedPlugin(): Plugin {
  const signedIn = new Set(
    appRoutes()
      .filter(({ sources }) => sources.includes(SHELL_SOURCE))
      .flatMap(({ sources }) => sources.map((file) => path.join(root, file))),
  );
  return {
    name: 'medora-signed-in-shared',
    setup(build) {
      build.onLoad({ filter: /\.tsx$/ }, async ({ path: file }) => {
        if (!signedIn.has(file)) return undefined;
        const source = await readFile(file, 'utf8');
        return {
          contents: `${source}\nimport ${JSON.stringify(SIGNED_IN_SHARED)};\n`,
          loader: 'tsx',
          // Loaded here, not by esbuild: named so that `--watch` still rebuilds when the page changes.
          watchFiles: [file],
        };
      });
    },
  };
}

/** After every (re)build: write index.html and the metafile, and drop hashed files of earlier builds. */
function finishPlugin(): Plugin {
  return {
    name: 'medora-finish',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        await writePages(result.metafile);
        await writeFile(metafilePath, JSON.stringify(result.metafile));
        await removeStaleAssets(result.metafile);
        console.log(`web: ${Object.keys(result.metafile.outputs).length} files in ${path.relative(root, outDir)}`);
      });
    },
  };
}

function outputFor(metafile: Metafile, entry: string): string {
  const relativeEntry = path.relative(root, entry);
  const found = Object.entries(metafile.outputs).find(([, out]) => out.entryPoint === relativeEntry);
  if (!found) throw new Error(`no output for ${relativeEntry}`);
  return `/${path.relative(outDir, path.resolve(root, found[0])).split(path.sep).join('/')}`;
}

/**
 * What the app's pages show until the code has run: the app's own first frame (routes.tsx's Loading), so the
 * browser paints once the stylesheet is in rather than after every script, and nothing moves when React takes over.
 */
const LOADING_PLACEHOLDER = '<p class="loading" role="status">Loading…</p>';

/** The server's pages, one for each route of the UI and one for any other path (see the comment on top). */
async function writePages(metafile: Metafile): Promise<void> {
  const template = await readFile(path.join(webSrc, 'index.html'), 'utf8');
  const page = (sources: string[], stylesheet: 'main' | 'app') => {
    const entry = outputFor(metafile, entryPoints.main);
    const chunks = pageFiles(metafile.outputs as BuildOutputs, [`dist/web${entry}`], sources)
      .filter((file) => file.endsWith('.js'))
      .map((file) => file.slice('dist/web'.length))
      .filter((url) => url !== entry);
    const media = (sheet: string) => (sheet === stylesheet ? '' : ' media="not all"');
    return template
      .replace('{{main.js}}', entry)
      .replace('{{main.css}}', outputFor(metafile, entryPoints['main-styles']))
      .replace('{{app.css}}', outputFor(metafile, entryPoints['app-styles']))
      .replace('{{main.media}}', media('main'))
      .replace('{{app.media}}', media('app'))
      .replace('{{modulepreload}}', chunks.map((url) => `    <link rel="modulepreload" href="${url}" />`).join('\n'))
      .replace('{{placeholder}}', stylesheet === 'app' ? LOADING_PLACEHOLDER : '');
  };
  const notFound = page([pageSource(notFoundPage)], 'main');
  const routes = appRoutes().map(({ pattern, sources }) => ({
    pattern,
    html: page(sources, usesAppStylesheet(pattern) ? 'app' : 'main'),
  }));
  await writeFile(path.join(outDir, 'app-routes.json'), JSON.stringify({ routes, notFound }));
  await writeFile(path.join(outDir, 'index.html'), notFound);
}

async function removeStaleAssets(metafile: Metafile): Promise<void> {
  const current = new Set(Object.keys(metafile.outputs).map((file) => path.resolve(root, file)));
  for (const name of await readdir(assetsDir)) {
    const file = path.join(assetsDir, name);
    if (!current.has(file)) await rm(file);
  }
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
await cp(path.join(webSrc, 'public'), outDir, { recursive: true });

const ctx = await context(options);
if (watch) {
  await ctx.watch();
} else {
  await ctx.rebuild();
  await ctx.dispose();
  await buildCli();
  console.log(`cli: ${path.relative(root, CLI_BUNDLE)}`);
}
