/**
 * The `medora` command runs this bundle of src/cli/main.ts, compiled by esbuild at `npm run build` (which `make
 * build`, `make start` and `npm pack` run), so the installed command needs neither esbuild nor tsx.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// Two folders deep, like the sources: `new URL('../../migrations/', import.meta.url)` in src/db still finds the
// migrations from the bundle, and src/http finds dist/web the same way. bin/medora.js spells the same path.
export const CLI_BUNDLE = path.join(root, 'dist/cli/medora.js');

/**
 * Bundles the CLI with our sources inlined and every package left to node_modules (argon2 and PGlite load
 * native and WASM files of their own). Written beside and renamed into place, so a concurrent start never
 * reads half a file.
 */
export async function buildCli(): Promise<void> {
  const result = await build({
    entryPoints: { medora: path.join(root, 'src/cli/main.ts') },
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
    write: false,
    logLevel: 'warning',
  });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}
