/**
 * Lighthouse's mobile performance audit of the pages a visitor and a patient open first: `/`, `/login` and each
 * page of the patient's area, signed in as the demo patient. Builds the UI, starts `medora serve` on a fresh
 * embedded database with the demo clinic, and drives Debian's Chromium (CHROMIUM_PATH, /usr/bin/chromium by
 * default; no browser is ever downloaded). Prints the score, LCP, TBT and CLS of each page, and exits 1 when a
 * score is under 95 or a CLS 0.1 or more (`--keep=<dir>` keeps each page's report). `make lighthouse`; not part of
 * `make test`, a run takes minutes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Result } from 'lighthouse';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../src/demo/seed.ts';
import { routes, withId } from '../src/web/paths.ts';
import { chromium } from 'playwright-core';
import { areaPages } from '../src/web/route-table.ts';

const MIN_SCORE = 95;
const MAX_CLS = 0.1;
const root = path.resolve(import.meta.dirname, '..');
// Debian's full Chromium when it is there, else the headless shell the browser tests install (scripts/test).
const chromePath =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium', '/usr/bin/chromium-headless-shell'].find((path) => existsSync(path)) ||
  '/usr/bin/chromium';
/**
 * Lighthouse's mobile CPU slowdown, 4 by default, assumes a desktop host (benchmark index about 1000 or more); on a
 * slower or busy machine `--cpu-slowdown=<n>` scales it down, as Lighthouse's throttling guide advises.
 */
const cpuSlowdown = Number(process.argv.find((arg) => arg.startsWith('--cpu-slowdown='))?.split('=')[1] ?? 4);
/** `--keep=<dir>`: each page's whole Lighthouse report as JSON there, to see what its LCP and TBT are made of. */
const keepDir = process.argv.find((arg) => arg.startsWith('--keep='))?.split('=')[1];

interface Measured {
  page: string;
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of this machine's speed; its 4x mobile CPU slowdown assumes a desktop of 1000 or more. */
  benchmarkIndex: number;
}

/** `medora serve` on an embedded database of its own, on a free port; resolves with its address. */
async function startMedora(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '1',
    BACKUP_KEEP: '0',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [path.join(root, 'bin/medora.js'), 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const running = /Medora is running at (http:\/\/\S+)/.exec(output);
      if (running?.[1]) resolve(running[1]);
    });
    child.once('exit', (code) => reject(new Error(`medora serve stopped (${code}) before listening:\n${output}`)));
  });
  return { child, url };
}

/**
 * Signs the browser in as the demo patient, as the login form leaves it: the session in the HttpOnly cookie, the
 * role in localStorage (src/web/auth.ts). Lighthouse keeps both (its storage reset clears only caches and
 * workers) and clears the HTTP cache before each page. Answers the session's token.
 */
async function signInAsDemoPatient(chrome: LaunchedChrome, url: string): Promise<string> {
  const email = DEMO_ACCOUNTS.find((account) => account.role === 'patient')?.email;
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`the demo patient could not sign in: ${login.status} ${await login.text()}`);
  const { token, role } = (await login.json()) as { token: string; role: string };
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const [context] = browser.contexts();
  if (!context) throw new Error('Chromium has no browser context');
  await context.addCookies([{ name: 'medora_session', value: token, url, httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();
  await page.goto(`${url}/robots.txt`);
  await page.evaluate((signedIn) => localStorage.setItem('medora.role', signedIn), role);
  await page.close();
  await browser.close();
  return token;
}

/**
 * The patient's pages, from the UI's route table; a page of one thing shows the demo patient's own: a doctor's
 * profile, the discharge summary of their past stay, the printable prescription of their outpatient medicine.
 */
async function patientPages(url: string, token: string): Promise<string[]> {
  const first = async <T>(path: string, key: string, fits: (item: T) => boolean, what: string) => {
    const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    const found = ((await response.json()) as Record<string, T[] | undefined>)[key]?.find(fits);
    if (found === undefined) throw new Error(`the demo patient has no ${what}`);
    return found;
  };
  const ids: Record<string, number> = {
    [routes.patient.doctorProfile]: (await first<{ id: number }>('/api/doctors', 'doctors', () => true, 'doctor')).id,
    [routes.patient.dischargeSummary]: (
      await first<{ id: number; discharge_summary: unknown }>(
        '/api/patient/admissions',
        'admissions',
        (stay) => Boolean(stay.discharge_summary),
        'stay with a discharge summary',
      )
    ).id,
    [routes.patient.prescription]: (
      await first<{ id: number; setting: string }>(
        '/api/patient/prescriptions',
        'orders',
        (order) => order.setting === 'outpatient',
        'outpatient prescription',
      )
    ).id,
  };
  const pageOf = (pattern: string) => {
    if (!pattern.includes(':id')) return pattern;
    const id = ids[pattern];
    if (id === undefined) throw new Error(`${pattern}: say whose page of the demo patient's to measure`);
    return withId(pattern, id);
  };
  return [...Object.keys(areaPages.patient).map(pageOf), routes.account('patient')];
}

/**
 * Lighthouse asks for a second run when its trace missed the page load (NO_NAVSTART, NO_FCP on a busy host);
 * such a page is measured once more, and a second miss fails the run.
 */
const RETRIED_RUNTIME_ERRORS = new Set(['NO_NAVSTART', 'NO_FCP', 'NO_LCP']);

async function audit(
  chrome: LaunchedChrome,
  url: string,
  page: string,
  signedIn = false,
  retried = false,
): Promise<Measured> {
  const result = await lighthouse(`${url}${page}`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    throttling: { cpuSlowdownMultiplier: cpuSlowdown },
  });
  const lhr: Result | undefined = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${page}`);
  if (lhr.configSettings.throttling.cpuSlowdownMultiplier !== cpuSlowdown)
    throw new Error('Lighthouse did not take the CPU slowdown');
  if (lhr.runtimeError) {
    if (!retried && RETRIED_RUNTIME_ERRORS.has(lhr.runtimeError.code)) {
      console.log(`${page}: ${lhr.runtimeError.code}, measuring it once more`);
      return audit(chrome, url, page, signedIn, true);
    }
    throw new Error(`${page}: ${lhr.runtimeError.message}`);
  }
  if (keepDir) {
    await mkdir(keepDir, { recursive: true });
    await writeFile(
      path.join(keepDir, `${page.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}.json`),
      JSON.stringify(lhr, null, 1),
    );
  }
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  if (signedIn && new URL(lhr.finalDisplayedUrl).pathname !== page)
    throw new Error(`${page} led to ${lhr.finalDisplayedUrl}: not signed in`);
  return {
    page,
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

function report(measured: Measured[]): boolean {
  const failing = (m: Measured) => m.score < MIN_SCORE || m.cls >= MAX_CLS;
  console.log(`\nLighthouse mobile: simulated slow 4G, CPU slowdown ${cpuSlowdown}x`);
  console.log(
    `${'page'.padEnd(32)} ${'score'.padStart(5)} ${'LCP'.padStart(8)} ${'TBT'.padStart(7)} ${'CLS'.padStart(6)} ${'host'.padStart(5)}`,
  );
  for (const m of measured) {
    console.log(
      `${m.page.padEnd(32)} ${String(m.score).padStart(5)} ${`${(m.lcpMs / 1000).toFixed(2)} s`.padStart(8)} ${`${Math.round(m.tbtMs)} ms`.padStart(7)} ${m.cls.toFixed(3).padStart(6)} ${String(Math.round(m.benchmarkIndex)).padStart(5)}${failing(m) ? '  FAIL' : ''}`,
    );
  }
  console.log(
    "(host: Lighthouse's benchmark index of this machine during the page; a busy machine scores lower on TBT and LCP)",
  );
  const failed = measured.filter(failing);
  console.log(
    failed.length === 0
      ? `\nEvery page scores ${MIN_SCORE} or more with CLS under ${MAX_CLS}.`
      : `\n${failed.length} page(s) score under ${MIN_SCORE} or shift ${MAX_CLS} or more.`,
  );
  return failed.length === 0;
}

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const dataDir = await mkdtemp(path.join(tmpdir(), 'medora-lighthouse-'));
const medora = await startMedora(dataDir);
let chrome: LaunchedChrome | undefined;
let passed = false;
try {
  chrome = await launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const measured: Measured[] = [];
  for (const page of ['/', '/login']) measured.push(await audit(chrome, medora.url, page));
  const token = await signInAsDemoPatient(chrome, medora.url);
  for (const page of await patientPages(medora.url, token)) measured.push(await audit(chrome, medora.url, page, true));
  passed = report(measured);
} finally {
  chrome?.kill();
  medora.child.kill('SIGTERM');
  await new Promise((resolve) => medora.child.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(passed ? 0 : 1);
