import pg from 'pg';

interface PgHost {
  host: string;
  port: number;
}

/** A connection string split into its hosts (libpq's `postgres://h1:5432,h2:5432/db`). */
export interface HostList {
  hosts: PgHost[];
  /**
   * The URL once per host, with that host in place of the list and libpq's `target_session_attrs` removed (pg
   * refuses both); a connection string overrides pg's `host` and `port`, so each host needs its own.
   */
  urls: string[];
}

/**
 * Reads a libpq multi-host URL, which node-postgres does not: each host is tried in order for a primary (one that
 * accepts writes), as `target_session_attrs=read-write` asks of libpq. A Unix socket directory (a host starting
 * with `/`, or `%2F` encoded) is one host. A host without a port has 5432, as in libpq's URIs.
 */
export function hostList(url: string): HostList {
  const match = /^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)([^/?#]*)(.*)$/.exec(url);
  if (!match) return { hosts: [], urls: [url] };
  const [, head, authority = '', rest = ''] = match;
  const hosts = authority.split(',').map((part) => {
    const bracketed = /^\[(.*)\](?::(\d+))?$/.exec(part);
    if (bracketed) return { host: bracketed[1] ?? '', port: Number(bracketed[2] ?? 5432) };
    const colon = part.lastIndexOf(':');
    return colon < 0
      ? { host: decodeURIComponent(part), port: 5432 }
      : { host: decodeURIComponent(part.slice(0, colon)), port: Number(part.slice(colon + 1)) };
  });
  const withoutAttrs = rest
    .replace(/([?&])target_session_attrs=[^&#]*&?/, '$1')
    .replace(/[?&]$/, '')
    .replace(/[?&](#|$)/, '$1');
  return { hosts, urls: authority.split(',').map((part) => `${head}${part}${withoutAttrs}`) };
}

/**
 * Which host is the primary now: the first of the list, in order, that answers and is not read-only
 * (`show transaction_read_only`, as libpq's read-write check). Undefined when none is, e.g. while a standby is
 * being promoted; the caller keeps its host and asks again at the next failure.
 */
export async function findPrimary(configs: pg.ClientConfig[], timeoutMs: number): Promise<number | undefined> {
  for (const [index, config] of configs.entries()) {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
    client.on('error', () => {});
    try {
      await client.connect();
      const [row] = (await client.query<{ transaction_read_only: string }>('show transaction_read_only')).rows;
      if (row?.transaction_read_only === 'off') return index;
    } catch {
      // Down or still starting: the next host.
    } finally {
      void client.end().catch(() => {});
    }
  }
  return undefined;
}
