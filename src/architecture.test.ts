import { describe, it } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** The order written in docs/architecture.md: a domain module imports only those before it. */
export const DOMAIN_ORDER = [
  'audit',
  'notifications',
  'auth',
  'scheduling',
  'catalogue',
  'billing',
  'care',
  'records',
  'inpatient',
  'lab',
  'vitals',
  'medicines',
  'interfaces',
  'patients',
  'fhir',
  'reports',
  'imports',
];

export interface Import {
  /** The importing file, relative to src/. */
  from: string;
  /** The imported file relative to src/, or the package. */
  to: string;
  local: boolean;
  typeOnly: boolean;
}

const IO_PACKAGES = /^(node:|pg$|@electric-sql\/|react|argon2$)/;

const SHARED_WITH_WEB = 'domain/shared/date-format.ts';

/** What each layer outside the domain and the web never imports: the table of docs/architecture.md. */
const NEVER: Record<string, string[]> = {
  db: ['http', 'cli', 'web', 'app.ts'],
  http: ['cli', 'web', 'db'],
  cli: ['web'],
  mail: ['http', 'cli', 'web', 'demo', 'runtime.ts'],
  demo: ['http', 'cli', 'web', 'mail', 'runtime.ts'],
  'runtime.ts': ['http', 'cli', 'web', 'mail', 'demo'],
};

/** The rule an import breaks, or undefined when it keeps them all. */
export function brokenRule({ from, to, local, typeOnly }: Import): string | undefined {
  if (/\.test\.tsx?$/.test(from) || from.startsWith('testing/') || from.startsWith('web/e2e/')) return undefined;
  const [layer, module] = from.split('/');
  const [toLayer, toModule] = local ? to.split('/') : [];
  if (layer === 'domain' && !local && IO_PACKAGES.test(to)) return `the domain does no I/O (${to})`;
  if (layer === 'domain' && module && module !== 'shared') {
    if (toLayer !== undefined && toLayer !== 'domain') return `the domain imports no ${toLayer}`;
    if (toLayer === 'domain' && toModule && toModule !== 'shared' && toModule !== module) {
      const [mine, theirs] = [DOMAIN_ORDER.indexOf(module), DOMAIN_ORDER.indexOf(toModule)];
      if (mine < 0 || theirs < 0) return `${module} or ${toModule} is missing from docs/architecture.md's order`;
      if (theirs > mine) return `${module} comes before ${toModule} in docs/architecture.md's order`;
    }
  }
  if (layer === 'domain' && module === 'shared' && toLayer !== undefined && toLayer !== 'domain')
    return `domain/shared imports no ${toLayer}`;
  if (layer && toLayer && NEVER[layer]?.includes(toLayer)) return `${layer} imports no ${toLayer}`;
  // links.ts spells the UI's addresses the server and the CLI hand out, date-format.ts the dates the e-mails and the
  // screens show; both import nothing, so the web may share them.
  if (
    layer === 'web' &&
    toLayer !== undefined &&
    toLayer !== 'web' &&
    toLayer !== 'links.ts' &&
    to !== SHARED_WITH_WEB
  ) {
    if (!typeOnly || !['domain', 'http'].includes(toLayer))
      return `web imports only types from domain and http (${to})`;
  }
  return undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'";]*?\s*from\s+'([^']+)'/gm;

export function importsOf(file: string, text: string): Import[] {
  const from = relative(SRC, file);
  return [...text.matchAll(IMPORT)].map((found) => {
    const spec = found[3] ?? '';
    const local = spec.startsWith('.');
    return { from, to: local ? relative(SRC, resolve(dirname(file), spec)) : spec, local, typeOnly: Boolean(found[2]) };
  });
}

/** The circles of the import graph (`from` → `to` files), each once, as its files in import order. */
export function importCircles(imports: readonly Pick<Import, 'from' | 'to'>[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of imports) graph.set(from, [...(graph.get(from) ?? []), to]);
  // Tarjan's strongly connected components: a component of more than one file is a circle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.size - 1);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1) circles.push(component);
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('the import order of docs/architecture.md', () => {
  it('holds for every import in src/', () => {
    const broken = sourceFiles(SRC)
      .flatMap((file) => importsOf(file, readFileSync(file, 'utf8')))
      .map((found) => ({ found, rule: brokenRule(found) }))
      .filter(({ rule }) => rule !== undefined)
      .map(({ found, rule }) => `${found.from} → ${found.to}: ${rule}`);
    assert.deepEqual(broken, []);
  });

  it('catches a forbidden import when one is added', () => {
    const added = (from: string, spec: string, typeOnly = false) => {
      const [found] = importsOf(join(SRC, from), `${typeOnly ? 'import type' : 'import'} { x } from '${spec}';`);
      assert.ok(found);
      return brokenRule(found);
    };
    assert.match(added('domain/audit/use-cases.ts', '../billing/billing.ts') ?? '', /audit comes before billing/);
    assert.match(added('domain/scheduling/booking-use-cases.ts', '../../db/db.ts') ?? '', /domain imports no db/);
    assert.match(added('domain/records/records.ts', 'node:fs') ?? '', /no I\/O/);
    assert.match(added('db/auth.pg.ts', '../http/server.ts') ?? '', /db imports no http/);
    assert.match(added('http/routes.ts', '../db/db.ts') ?? '', /http imports no db/);
    assert.match(added('mail/start.ts', '../http/server.ts') ?? '', /mail imports no http/);
    assert.match(added('demo/seed.ts', '../cli/main.ts') ?? '', /demo imports no cli/);
    assert.match(added('runtime.ts', './mail/start.ts') ?? '', /runtime.ts imports no mail/);
    assert.equal(added('mail/start.ts', '../db/outbox.pg.ts'), undefined);
    assert.match(added('web/api.ts', '../domain/billing/billing.ts') ?? '', /web imports only types/);
    assert.equal(added('web/api.ts', '../domain/billing/billing.ts', true), undefined);
    assert.equal(added('domain/records/use-cases.ts', '../billing/billing.ts'), undefined);
  });
});

describe('the test files', () => {
  it('take node:test bounded in time, from src/testing/node-test.ts', () => {
    const files = [...sourceFiles(SRC), ...sourceFiles(join(SRC, '../scripts'))].filter(
      (file) => !file.endsWith('testing/node-test.ts'),
    );
    const unbounded = files.filter((file) =>
      importsOf(file, readFileSync(file, 'utf8')).some((found) => found.to === 'node:test'),
    );
    assert.deepEqual(
      unbounded.map((file) => relative(SRC, file)),
      [],
    );
  });
});

describe('the import graph', () => {
  it('has no circles in src/', () => {
    const imports = sourceFiles(SRC)
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .flatMap((file) => importsOf(file, readFileSync(file, 'utf8')))
      .filter((found) => found.local);
    assert.deepEqual(importCircles(imports), []);
  });

  it('finds a circle when one is added, and none in a chain', () => {
    const chain = [
      { from: 'a.ts', to: 'b.ts' },
      { from: 'b.ts', to: 'c.ts' },
    ];
    assert.deepEqual(importCircles(chain), []);
    assert.deepEqual(
      importCircles([
        ...chain,
        { from: 'c.ts', to: 'a.ts' },
        { from: 'c.ts', to: 'd.ts' },
        { from: 'd.ts', to: 'e.ts' },
      ]).map((c) => c.sort()),
      [['a.ts', 'b.ts', 'c.ts']],
    );
  });
});
