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
  /** Targets checked in the report, in milliseconds. */
  p99TargetMs?: number;
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
  p99TargetMs?: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/** Drives `baseUrl` with one scenario for a fixed time (or until its data runs out) and summarises the run. */
export async function runLoad(baseUrl: string, scenario: Scenario, options: LoadOptions): Promise<Measurement> {
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
  const maxOverallRequests = scenario.maxRequests === undefined ? undefined : Math.max(1, scenario.maxRequests - 2 * options.connections);
  const result = await autocannon({
    url: baseUrl,
    connections: Math.min(options.connections, maxOverallRequests ?? Infinity),
    duration: options.seconds,
    maxOverallRequests,
    timeout: 10,
    requests: [request],
  });
  return summarize(scenario, options.connections, result, firstError);
}

/** autocannon's result in the bench's terms: every answer but the expected status counts as an error. */
export function summarize(scenario: Scenario, connections: number, result: Result, firstError?: string): Measurement {
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]));
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
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: unexpected + result.errors + result.timeouts,
    statusCodes,
    firstError,
    p99TargetMs: scenario.p99TargetMs,
  };
}

export const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/** A generator of requests that walks `items` round and round, whichever connection asks. */
export function cycling<T>(items: T[], toRequest: (item: T) => Request): () => Request {
  if (items.length === 0) throw new Error('a scenario needs at least one item to send');
  let i = 0;
  return () => toRequest(items[i++ % items.length]);
}

/** Like `cycling`, but each item is sent once: for requests that change the data, such as a booking. */
export function consuming<T>(items: T[], toRequest: (item: T) => Request): () => Request {
  if (items.length === 0) throw new Error('a scenario needs at least one item to send');
  let i = 0;
  // Past the end only a connection's reserve request is built, and it is never sent (see maxOverallRequests).
  return () => toRequest(items[Math.min(i++, items.length - 1)]);
}
