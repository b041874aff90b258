import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { present } from '../../src/testing/assert.ts';

/** Where a server's CPU time went, from a V8 `.cpuprofile` (node --cpu-prof): self time by function and by part. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface SelfTime {
  name: string;
  /** Samples that found this function itself running (not what it called). */
  samples: number;
}

/** The source file a position of the running code comes from (through a bundle's source map), else `url`. */
export type Locate = (url: string, line: number, column: number) => string;

/**
 * A Locate that reads the source map beside each bundle it meets (`<file>.map`, as esbuild's `linked` writes
 * it): positions in dist/cli/medora.js then name their file under src/.
 */
export function sourceMapLocator(): Locate {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        map = url.startsWith('file://')
          ? new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')))
          : undefined;
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (url, line, column) => {
    const map = mapOf(url);
    const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource ? new URL(entry.originalSource, url).href : url;
  };
}

/** The parts of a request a profile is split into, by where the running code lives; the first that fits wins. */
export const PARTS: { part: string; test: (url: string, fn: string) => boolean }[] = [
  { part: 'idle', test: (_url, fn) => fn === '(idle)' },
  { part: 'garbage collection', test: (_url, fn) => fn === '(garbage collector)' },
  { part: 'V8 and native (program)', test: (_url, fn) => fn === '(program)' },
  { part: 'Medora http (src/http)', test: (url) => url.includes('/src/http/') },
  { part: 'Medora use cases (src/domain)', test: (url) => url.includes('/src/domain/') },
  { part: 'Medora adapters (src/db)', test: (url) => url.includes('/src/db/') },
  { part: 'Medora other (src/*)', test: (url) => url.includes('/src/') },
  { part: 'bench twins', test: (url) => url.includes('/scripts/bench/') },
  { part: 'pg driver', test: (url) => /node_modules\/(pg|pg-[a-z-]+|pgpass|postgres-[a-z-]+)\//.test(url) },
  { part: 'other packages', test: (url) => url.includes('node_modules/') },
  {
    part: 'node http',
    test: (url) => /node:(_http|http|internal\/http|internal\/streams|stream|net|internal\/stream_base)/.test(url),
  },
  {
    part: 'node console and fs',
    test: (url) => /node:(internal\/console|internal\/fs|fs|internal\/util\/inspect)/.test(url),
  },
  { part: 'node other', test: (url) => url.startsWith('node:') },
  { part: 'other', test: () => true },
];

/**
 * Samples per function (`name file`) and per part, busiest first, idle left out. Samples are counted rather than
 * their time deltas summed: on a machine shared with other work a delta also holds the time the process waited
 * for a CPU, charged to whatever happened to run before; a count is the share of the process's own running time.
 */
export function selfTimes(
  profile: CpuProfile,
  locate: Locate = (url) => url,
): { functions: SelfTime[]; parts: SelfTime[]; busySamples: number } {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  // Medora runs as one esbuild bundle and the twin from its sources: a function is named by its source file in both.
  const sourceOf = new Map<number, string>();
  for (const node of profile.nodes) {
    const { url, lineNumber, columnNumber } = node.callFrame;
    sourceOf.set(node.id, url ? locate(url, lineNumber, columnNumber ?? 0) : url);
  }
  const functions = new Map<string, number>();
  const parts = new Map<string, number>();
  let busySamples = 0;
  for (const id of profile.samples) {
    const { functionName } = present(byNode.get(id), 'profile node').callFrame;
    const url = present(sourceOf.get(id), 'node source');
    const fn = functionName || '(anonymous)';
    const { part } = present(
      PARTS.find((p) => p.test(url, fn)),
      'part',
    );
    if (part === 'idle') continue;
    busySamples++;
    // tsx compiles each module to one line, so a line number says nothing; the file does.
    const name = url ? `${fn} ${shortUrl(url)}` : fn;
    functions.set(name, (functions.get(name) ?? 0) + 1);
    parts.set(part, (parts.get(part) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>) =>
    [...m].map(([name, samples]) => ({ name, samples })).sort((a, b) => b.samples - a.samples);
  return { functions: sorted(functions), parts: sorted(parts), busySamples };
}

function shortUrl(url: string): string {
  const at = url.search(/\/(src|scripts|node_modules)\//);
  return at >= 0 ? url.slice(at + 1) : url.replace(/^file:\/\//, '');
}
