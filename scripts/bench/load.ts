import autocannon, { type Request, type Result } from 'autocannon';

/** One endpoint's load: the requests to cycle through and the status every one of them should get. */
export interface Scenario {
  name: string;
  method: string;
  path: string;
  expectStatus: number;
  /** Builds the next request; each call may hand out different data (tokens, ids, free slots). */
  next: () => Request;
  /** For scenarios that use up their data (bookings): how many requests there is data for. */
  maxRequests?: number;
}

export interface Measurement {
  name: string;
  method: string;
  path: string;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers other than the expected status, plus connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  /** The body of the first unexpected answer, to tell what went wrong. */
  firstError?: string;
  /** Every answer's latency in ms, as measured (not rounded into a histogram's buckets); not written out. */
  latenciesMs: number[];
  /** CPU time the server used meanwhile, in microseconds, when it was asked. */
  serverCpuUs?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/**
 * Drives `baseUrl` with one scenario for a fixed time (or until its data runs out) and summarises the run; with
 * `serverCpuUs`, the server's CPU time too.
 */
export async function runLoad(
  baseUrl: string,
  scenario: Scenario,
  options: LoadOptions,
  serverCpuUs?: () => number,
): Promise<Measurement> {
  const cpuBefore = serverCpuUs?.();
  let firstError: string | undefined;
  const request: Request = {
    method: scenario.method,
    setupRequest: () => scenario.next(),
    onResponse: (status, body) => {
      if (status !== scenario.expectStatus && firstError === undefined) firstError = `${status} ${body.slice(0, 300)}`;
    },
  };
  // A connection builds its next request before the run ends; keeping one per connection in reserve means
  // a scenario with limited data never has to send a request twice.
  const maxOverallRequests =
    scenario.maxRequests === undefined ? undefined : Math.max(1, scenario.maxRequests - 2 * options.connections);
  const instance = autocannon({
    url: baseUrl,
    connections: Math.min(options.connections, maxOverallRequests ?? Infinity),
    duration: options.seconds,
    maxOverallRequests,
    timeout: 10,
    requests: [request],
  });
  const latenciesMs: number[] = [];
  instance.on('response', (_client, _status, _bytes, responseTimeMs) => latenciesMs.push(responseTimeMs));
  const measured = summarize(scenario, options.connections, await instance, firstError, latenciesMs);
  return serverCpuUs && cpuBefore !== undefined ? { ...measured, serverCpuUs: serverCpuUs() - cpuBefore } : measured;
}

/**
 * autocannon's result in the bench's terms: every answer but the expected status counts as an error. With the
 * latencies of every answer, percentiles are exact; without, autocannon's whole-millisecond histogram is used.
 */
export function summarize(
  scenario: Scenario,
  connections: number,
  result: Result,
  firstError?: string,
  latenciesMs?: number[],
): Measurement {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
  );
  const answered = Object.values(statusCodes).reduce((sum, n) => sum + n, 0);
  const unexpected = answered - (statusCodes[String(scenario.expectStatus)] ?? 0);
  return {
    name: scenario.name,
    method: scenario.method,
    path: scenario.path,
    connections,
    seconds: result.duration,
    requests: answered,
    requestsPerSecond: round(answered / result.duration, 1),
    ...(latenciesMs && latenciesMs.length > 0
      ? percentiles(latenciesMs)
      : { p50Ms: result.latency.p50, p99Ms: result.latency.p99, maxMs: result.latency.max }),
    errors: unexpected + result.errors + result.timeouts,
    statusCodes,
    firstError,
    latenciesMs: latenciesMs ?? [],
  };
}

/** Several runs of one scenario as one: requests and seconds add up, percentiles are of all their answers. */
export function combine(runs: Measurement[]): Measurement {
  const [first] = runs;
  if (!first) throw new Error('nothing to combine');
  const seconds = runs.reduce((sum, m) => sum + m.seconds, 0);
  const requests = runs.reduce((sum, m) => sum + m.requests, 0);
  const statusCodes: Record<string, number> = {};
  for (const m of runs)
    for (const [code, n] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const latenciesMs = runs.flatMap((m) => m.latenciesMs);
  const cpuTimesUs = runs.map((m) => m.serverCpuUs);
  return {
    ...first,
    seconds: round(seconds, 2),
    requests,
    requestsPerSecond: round(requests / seconds, 1),
    ...(latenciesMs.length > 0
      ? percentiles(latenciesMs)
      : {
          p50Ms: first.p50Ms,
          p99Ms: Math.max(...runs.map((m) => m.p99Ms)),
          maxMs: Math.max(...runs.map((m) => m.maxMs)),
        }),
    errors: runs.reduce((sum, m) => sum + m.errors, 0),
    statusCodes,
    firstError: runs.find((m) => m.firstError)?.firstError,
    latenciesMs,
    serverCpuUs: cpuTimesUs.every((us) => us !== undefined) ? cpuTimesUs.reduce((sum, us) => sum + us, 0) : undefined,
  };
}

/** The server's CPU time per answered request, in microseconds, when it was measured. */
export const cpuPerRequestUs = (m: Measurement) =>
  m.serverCpuUs === undefined || m.requests === 0 ? undefined : round(m.serverCpuUs / m.requests, 1);

/** Nearest-rank percentiles, to a hundredth of a millisecond. */
export function percentiles(latenciesMs: number[]): { p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = Float64Array.from(latenciesMs).sort();
  // Of no latencies at all, every percentile is NaN.
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? Number.NaN;
  return { p50Ms: round(at(0.5), 2), p99Ms: round(at(0.99), 2), maxMs: round(at(1), 2) };
}

export const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** A generator of requests that walks `items` round and round, whichever connection asks. */
export function cycling<T>(items: T[], toRequest: (item: T) => Request): () => Request {
  if (items.length === 0) throw new Error('a scenario needs at least one item to send');
  let i = 0;
  return () => toRequest(nth(items, i++ % items.length));
}

/** Like `cycling`, but each item is sent once: for requests that change the data, such as a booking. */
export function consuming<T>(items: T[], toRequest: (item: T) => Request): () => Request {
  if (items.length === 0) throw new Error('a scenario needs at least one item to send');
  let i = 0;
  // Past the end only a connection's reserve request is built, and it is never sent (see maxOverallRequests).
  return () => toRequest(nth(items, Math.min(i++, items.length - 1)));
}

/** `items[i]`, which the caller keeps in range. */
export function nth<T>(items: T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new RangeError(`there is no item ${i} of ${items.length}`);
  return item;
}
