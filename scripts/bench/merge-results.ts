import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Sets one section of a results file (bench/results.json), keeping every other section as it is: several runs —
 * the main bench, the CPU per answer, the burst over real processes — each write their own part of one file.
 */
export async function mergeResults(file: string, section: string, value: unknown): Promise<void> {
  const current: unknown = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : {};
  if (typeof current !== 'object' || current === null || Array.isArray(current))
    throw new Error(`${file} does not hold a JSON object`);
  await writeFile(file, `${JSON.stringify({ ...current, [section]: value }, null, 2)}\n`);
}

/** Adds one run to a section that lists runs (the earlier ones kept, newest last). */
export async function appendResult(file: string, section: string, run: unknown): Promise<void> {
  const current: unknown = existsSync(file) ? JSON.parse(await readFile(file, 'utf8')) : {};
  const runs = (current as Record<string, unknown>)[section];
  await mergeResults(file, section, [...(Array.isArray(runs) ? runs : []), run]);
}
