/**
 * The `medora` command runs this bundle of src/cli/main.ts, compiled once by esbuild, instead of compiling
 * TypeScript on every start. bin/medora.js rebuilds it whenever a source it was built from has changed since,
 * so an edit, a `git pull` or a fresh clone never runs stale code, and no install step can be forgotten.
 * Plain JavaScript, because bin/medora.js imports it before anything could compile TypeScript.
 */
import { mkdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = path.join(root, 'src/cli/main.ts');
// Two folders deep, like the sources: `new URL('../../migrations/', import.meta.url)` in src/db still finds the
// migrations from the bundle, and src/http finds dist/web the same way.
export const CLI_BUNDLE = path.join(root, 'dist/cli/medora.js');
const INPUTS = path.join(root, 'dist/cli/medora.inputs.json');
const THIS_FILE = fileURLToPath(import.meta.url);

/** True when the bundle exists and no source it was built from (nor this build) changed after it was built. */
export function cliBundleIsFresh() {
  try {
    const builtAt = statSync(CLI_BUNDLE).mtimeMs;
    /** @type {string[]} */
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
    return [THIS_FILE, ...inputs].every((file) => statSync(path.resolve(root, file)).mtimeMs <= builtAt);
  } catch {
    return false;
  }
}

/**
 * Bundles the CLI with our sources inlined and every package left to node_modules (argon2 and PGlite load
 * native and WASM files of their own). Written beside and renamed into place, so a concurrent start never
 * reads half a file; stamped with the time the build began, so a source saved during the build counts as newer.
 */
export async function buildCli() {
  const startedAt = new Date();
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { medora: entry },
    outdir: path.dirname(CLI_BUNDLE),
    // Each command's dynamic imports become chunks of their own, loaded when that command runs.
    splitting: true,
    // Beside the entry, two folders deep like the sources, so their relative paths (migrations, dist/web) still hold.
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  writeFileSync(INPUTS, JSON.stringify(Object.keys(result.metafile.inputs)));
  utimesSync(CLI_BUNDLE, startedAt, startedAt);
}
