const UNIT_MS = { ms: 1, s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * The statement_timeout a socket client asked for, in ms (0: none): set in its session (pg_settings' value, in ms),
 * else in its startup packet's `options` (`-c statement_timeout=10min`, as the CLI and PGOPTIONS send it), else
 * `fallback`, the server's own.
 */
export function statementLimitMs(
  settings: [string, string][],
  startupOptions: string | undefined,
  fallback: number,
): number {
  const set = settings.find(([name]) => name === 'statement_timeout');
  if (set) return durationMs(set[1]) ?? fallback;
  const option = /(?:^|\s)(?:-c\s*|--)statement_timeout=(\S+)/.exec(startupOptions ?? '')?.[1];
  return (option === undefined ? undefined : durationMs(option)) ?? fallback;
}

/** A PostgreSQL duration setting's value ('5000', '5s', '10min') in ms, as the server reads one in ms by default. */
function durationMs(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h|d)?$/.exec(value.trim().replace(/^'(.*)'$/, '$1'));
  return match ? Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS]) : undefined;
}
