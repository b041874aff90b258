/**
 * Round trips per write: one request of each write through Medora and one through its bare twin, both in this
 * process over a handle that notes every statement sent (the transaction's own begin and commit included). The
 * twin must send exactly Medora's statements; any statement either sends beyond that is the framework's.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeApp, type AppConfig } from '../../src/app.ts';
import type { Db } from '../../src/db/db.ts';
import { systemClock } from '../../src/domain/shared/clock.ts';
import { createMedoraServer } from '../../src/http/server.ts';
import { closeGracefully } from '../../src/http/shutdown.ts';
import { notingDb } from './noting-db.ts';
import { WRITE_KINDS, type WriteKind, type WriteRequest } from './fixtures.ts';
import type { RoundTrips, Statements } from './statements.ts';
import { WRITES } from './scenarios.ts';
import { createTwinServer } from './twins.ts';

/** Two targets of each write: the first for Medora's request, the second for the twin's. */
export type CountedTargets = Record<WriteKind, [WriteRequest, WriteRequest]>;

export async function countRoundTrips(db: Db, config: AppConfig, targets: CountedTargets): Promise<RoundTrips[]> {
  const counting = countingDb(db);
  const medora = createMedoraServer(makeApp({ db: counting.db, clock: systemClock, config }), { log: () => {} });
  const twin = createTwinServer(counting.db, { config });
  try {
    const [medoraUrl, twinUrl] = [await listening(medora), await listening(twin)];
    const counted: RoundTrips[] = [];
    for (const kind of WRITE_KINDS) {
      const [forMedora, forTwin] = targets[kind];
      const send = async (base: string, w: WriteRequest) => {
        counting.take();
        const res = await fetch(`${base}${w.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${w.token}`, 'content-type': 'application/json' },
          body: w.body,
        });
        const text = await res.text();
        if (res.status !== WRITES[kind].expectStatus)
          throw new Error(`${WRITES[kind].name} answered ${res.status} ${text.slice(0, 300)} (${base})`);
        return counting.take();
      };
      counted.push({
        name: WRITES[kind].name,
        medora: await send(medoraUrl, forMedora),
        twin: await send(twinUrl, forTwin),
      });
    }
    return counted;
  } finally {
    twin.close();
    twin.closeIdleConnections();
    await closeGracefully(medora, 100);
  }
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A statement as its first few words, enough to tell which one it is and short enough to print. */
const firstWords = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 72);

/** `db`, noting every statement sent through it; `take()` answers those since the last call. */
export function countingDb(db: Db): { db: Db; take(): Statements } {
  let seen: Statements = { transactions: 0, inTransaction: [], outside: [] };
  const counted = notingDb(db, (sql, _params, inTransaction) => {
    if (sql === 'begin') seen.transactions++;
    (inTransaction ? seen.inTransaction : seen.outside).push(firstWords(sql));
  });
  return {
    db: counted,
    take: () => {
      const taken = seen;
      seen = { transactions: 0, inTransaction: [], outside: [] };
      return taken;
    },
  };
}
