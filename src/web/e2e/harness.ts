/**
 * Browser tests' harness: the real server (over a fresh database) serving the built UI in
 * dist/web, and Debian's headless Chromium driven by playwright-core. The test command builds the UI first.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before } from '../../testing/node-test.ts';
import { chromium, type Browser, type BrowserContextOptions, type Page, type Request } from 'playwright-core';
import { PASSWORD, startTestServer, TEST_TZ, uniqueEmail, type TestServer } from '../../testing/http.ts';
import { clinicInstant, type Clock } from '../../domain/shared/clock.ts';
import { formatDate } from '../../domain/shared/date-format.ts';
import { testDatabases } from '../../testing/test-db.ts';

export { PASSWORD, uniqueEmail, type TestServer };

const root = path.resolve(import.meta.dirname, '../../..');
export const RESULTS_DIR = path.join(root, 'test-results');
export const DIST_WEB = path.join(root, 'dist/web');

/**
 * The clinic's "now" in these tests: Monday 2030-06-03, 08:00 in Europe/Berlin (the harness's clinic zone),
 * so today's slots from 09:00 on are still open whenever the tests run. It is also later than the
 * browser's real clock, so appointments booked for it are in the future for the page too.
 */
export const CLINIC_TODAY = '2030-06-03';
export const CLINIC_NOW = '2030-06-03T06:00:00Z';

/** A 'yyyy-MM-dd' day as the test clinic's screens show it (CLINIC_LOCALE's default, en-US): 'Jun 3, 2030'. */
export const shownDate = (date: string) => formatDate(date, 'en-US');

let clinicNow = new Date(CLINIC_NOW);
/** The server's clock: CLINIC_NOW, except while `atClinicTime` lets a visit of today begin. */
const clinicClock: Clock = { now: () => new Date(clinicNow) };

/**
 * Runs `fn` with the server's clock at `time` (HH:mm) of CLINIC_TODAY (or of `date`, as when a ward patient leaves
 * days later), as when a visit has begun, then puts it back.
 */
export async function atClinicTime<T>(time: string, fn: () => Promise<T>, date = CLINIC_TODAY): Promise<T> {
  clinicNow = clinicInstant(date, time, TEST_TZ);
  try {
    return await fn();
  } finally {
    clinicNow = new Date(CLINIC_NOW);
  }
}

/** The server on a fresh database: the PostgreSQL server's when TEST_DATABASE_URL is set (it opens in a fraction of PGlite's time), PGlite otherwise. */
async function startServer(options: ServerOptions): Promise<TestServer> {
  const [database] = testDatabases('one');
  if (!database) throw new Error('no test database');
  return startTestServer(database, { ...options, clock: clinicClock });
}

/** What a suite's server is configured with besides the clinic's clock: a card processor (a stand-in's). */
export type ServerOptions = Omit<Parameters<typeof startTestServer>[1], 'clock'>;

/**
 * Debian's chromium-headless-shell: Chromium's engine without the browser's own windows and services, which
 * Playwright also runs headless tests in. The same pages cost it a half to two thirds of full Chromium's CPU time.
 * CHROMIUM_PATH names another build of Chromium.
 */
const HEADLESS_CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: HEADLESS_CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A suite's own server (configured with `options()`, asked for when it starts) and browser: its `before` hook
 * starts both and hands them to `setUp` (to keep and to seed the clinic with), its `after` hook closes them.
 */
export function serverAndBrowserPerSuite(
  setUp: (server: TestServer, browser: Browser) => Promise<void>,
  options: () => ServerOptions = () => ({}),
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  before(async () => {
    server = await startServer(options());
    browser = await launchBrowser();
    await setUp(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

export interface WatchedPage {
  page: Page;
  /** Uncaught errors and CSP refusals seen so far; a test ends by asserting there were none. */
  problems: string[];
}

const requestsInFlight = new WeakMap<Page, Set<Request>>();

/** A fresh browser context (no stored session) whose page reports script errors and CSP violations. */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 900 },
  storageState?: BrowserContextOptions['storageState'],
): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL, viewport, storageState });
  const page = await context.newPage();
  const inFlight = new Set<Request>();
  requestsInFlight.set(page, inFlight);
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });
  return { page, problems };
}

export async function signInThroughUi(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/user/'));
  await page.locator('.shell-main h1').waitFor();
}

/**
 * A fresh watched page (see `openPage`) signed in as `email` and showing the role's first page. The session comes
 * from the API and sits where the login form leaves it: the token in the HttpOnly cookie, the role in
 * localStorage. Signing in through the form is tested on its own, and costs every other test a page load.
 * `viewport` sizes the page before its first load, and `beforeLoad` prepares it (as `watchLayoutShifts` does).
 */
export async function openSignedInPage(
  browser: Browser,
  server: TestServer,
  email: string,
  {
    password = PASSWORD,
    viewport,
    beforeLoad,
  }: {
    password?: string;
    viewport?: { width: number; height: number };
    beforeLoad?: (page: Page) => Promise<unknown>;
  } = {},
): Promise<WatchedPage> {
  const login = await server.api('POST', '/api/login', { body: { email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  const { token, role } = login.body as { token: string; role: string };
  const cookies = [
    { name: 'medora_session', value: token, url: server.url, httpOnly: true, sameSite: 'Lax' as const, expires: -1 },
  ];
  const watched = await openPage(browser, server.url, viewport, {
    cookies: cookies.map(({ url, ...cookie }) => ({
      ...cookie,
      domain: new URL(url).hostname,
      path: '/',
      secure: false,
    })),
    origins: [{ origin: server.url, localStorage: [{ name: 'medora.role', value: role }] }],
  });
  await beforeLoad?.(watched.page);
  await watched.page.goto(`/user/${role}`);
  await shownInPage(watched.page, '.shell-main h1');
  await watched.page.locator('.shell-main h1').waitFor();
  return watched;
}

/**
 * How often an in-page wait looks: every 20 ms, a frame or so, on a timer rather than each animation frame, which
 * would make an idle page draw frames while it waits.
 */
export const POLL_MS = 20;

/**
 * Resolves within POLL_MS of the first element matching `selector` (CSS) being visible as Playwright means it (a
 * box of some size, not `visibility: hidden`), or attached. A wait before Playwright's own (`locator.waitFor`),
 * which then finds it at once: Playwright polls at 20, 50, 100, 100 and then every 500 ms, so an element that
 * appears after a quarter of a second is found up to half a second late; this looks in the page every 20 ms.
 */
export async function shownInPage(
  page: Page,
  selector: string,
  state: 'visible' | 'attached' = 'visible',
): Promise<void> {
  await page.waitForFunction(
    ([css, wanted]) => {
      const element = document.querySelector(css);
      if (!element) return false;
      if (wanted === 'attached') return true;
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
    },
    [selector, state] as const,
    { polling: POLL_MS, timeout: 30_000 },
  );
}

/**
 * Opens `path` inside the running app as a click on a link does, through the history the router listens to: the
 * app's scripts and what a test injected stay loaded. The first visit of a page must load it (`page.goto`).
 */
export async function moveInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => history.pushState(null, '', to), path);
}

/**
 * Resolves once the page shows no loading placeholder and has had no request in flight for two rounds of two
 * animation frames, so what the last answer brought is rendered. The placeholder check covers a lazy page whose
 * chunk is still loading and has not asked for its data yet. Unlike Playwright's `networkidle`, it does not wait
 * a fixed half second.
 */
export async function settled(page: Page): Promise<void> {
  const inFlight = requestsInFlight.get(page);
  if (!inFlight) throw new Error('settled() needs a page from openPage()');
  const deadline = Date.now() + 15_000;
  for (let quietRounds = 0; quietRounds < 2; ) {
    if (Date.now() > deadline)
      throw new Error(`settled(): still loading after 15 s on ${page.url()} (${inFlight.size} requests in flight)`);
    const loading = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve(document.querySelector('[aria-busy="true"], .panel-skeleton, p.loading[role="status"]') !== null),
            ),
          ),
        ),
    );
    quietRounds = inFlight.size === 0 && !loading ? quietRounds + 1 : 0;
  }
}

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | undefined;

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  return axeViolations(page, ['serious', 'critical']);
}

/** axe-core's findings on the page as it is now (of the given impacts, or all), one line each. */
export async function axeViolations(page: Page, impacts?: string[]): Promise<string[]> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the page's CSP rightly refuses an injected inline <script>. Once a
  // document has it, moves inside the app keep it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    // Every rule still runs; axe only stops building a selector for each node that passes, which nothing here reads.
    const result = await axe.run({ resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      impact: v.impact ?? 'unknown',
      line: `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    }));
  });
  return violations.filter((v) => !impacts || impacts.includes(v.impact)).map((v) => v.line);
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Writes a full-page screenshot at phone width (375 px) to test-results/<name>.png. */
export async function phoneScreenshot(page: Page, name: string): Promise<string> {
  const previous = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (previous) await page.setViewportSize(previous);
  return file;
}

/** Which source files went into each built file (written by scripts/build.ts), keyed by URL path. */
export async function builtSources(): Promise<Map<string, string[]>> {
  const meta = JSON.parse(await readFile(path.join(root, 'dist/web-meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  return new Map(
    Object.entries(meta.outputs).map(([file, output]) => [
      `/${path.relative(DIST_WEB, path.join(root, file)).split(path.sep).join('/')}`,
      Object.keys(output.inputs),
    ]),
  );
}

/**
 * Records the page's layout shifts that no input caused, from its first paint, before any of its own scripts run:
 * each shift's time, score and what moved (read with `layoutShift`). Call before the `page.goto` it should watch.
 */
export const watchLayoutShifts = (page: Page) =>
  page.addInitScript(`
    window.__layoutShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        const moved = (entry.sources || []).map((source) => {
          const node = source.node;
          const name = !node ? '(gone)' : node.nodeType === 1 ? node.localName + (node.className ? '.' + String(node.className).trim().split(/\\s+/).join('.') : '') : node.nodeName;
          return name + ' ' + Math.round(source.previousRect.y) + '→' + Math.round(source.currentRect.y);
        });
        window.__layoutShifts.push({ startTime: entry.startTime, value: entry.value, moved });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  `);

/** The page's clock (performance.now()): a screen's shifts are those `layoutShift` reads from its start on. */
export const pageTime = (page: Page) => page.evaluate(() => performance.now());

/**
 * The layout shifts the page recorded (see `watchLayoutShifts`) since `since` (its clock, `pageTime`): their plain
 * sum, stricter than CLS's largest five-second session window, and what moved in each, for a failure to name.
 */
export async function layoutShift(page: Page, since = 0): Promise<{ score: number; moved: string[] }> {
  const shifts = await page.evaluate(
    () =>
      (window as unknown as { __layoutShifts: { startTime: number; value: number; moved: string[] }[] }).__layoutShifts,
  );
  const screen = shifts.filter((shift) => shift.startTime >= since);
  return {
    score: screen.reduce((sum, shift) => sum + shift.value, 0),
    moved: screen.map((shift) => `${shift.value.toFixed(3)}: ${shift.moved.join(', ')}`),
  };
}
