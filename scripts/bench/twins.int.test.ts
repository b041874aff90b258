import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeApp } from '../../src/app.ts';
import { clinicDateTime, fixedClock } from '../../src/domain/shared/clock.ts';
import { createMedoraServer } from '../../src/http/server.ts';
import { closeGracefully } from '../../src/http/shutdown.ts';
import { hearingOf } from '../../src/testing/hearing.ts';
import { testDatabases } from '../../src/testing/test-db.ts';
import { generateHospital } from './dataset.ts';
import { loadFixtures } from './fixtures.ts';
import { hospitalSize } from './scale.ts';
import { countingDb } from './round-trips.ts';
import { doctorsScenario, readScenarios } from './scenarios.ts';
import { BIG_PATIENT_ID } from './clinical-dataset.ts';
import { loadClinicalFixtures } from './clinical-fixtures.ts';
import { clinicalReadScenarios } from './clinical-scenarios.ts';
import { createTwinServer } from './twins.ts';

const TIME_ZONE = 'Etc/GMT';
/**
 * Requests of each scenario to each server: the first remembers the session, the second and later compare the
 * statements sent too. TWINS_ROUNDS=3 (or more) for more of each scenario's fixtures.
 */
const ROUNDS = Number(process.env.TWINS_ROUNDS ?? 2);

/** A CSV export's text, else the JSON. */
const bodyOf = (answer: Response): Promise<unknown> =>
  answer.headers.get('content-type')?.startsWith('text/csv') ? answer.text() : answer.json();

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

for (const target of testDatabases('both')) {
  describe(`the bench's bare twins on ${target.name}`, () => {
    it('answer every read the bench drives with the status and JSON Medora answers, sending the same statements', async (t) => {
      const { db, drop } = await target.open();
      // After the servers below close; also when filling the database fails before they start.
      t.after(() => drop());
      // One instant for both servers: a remembered session ages on neither, however slow the machine, so both
      // look sessions up at the same requests (Medora's cache keeps a lookup for 10 s, the twin's copy too).
      const clock = fixedClock(new Date().toISOString());
      const today = clinicDateTime(clock.now(), TIME_ZONE).date;
      await generateHospital(db, {
        size: hospitalSize(0.0001),
        today,
        passwordHash: 'not-a-real-hash',
        progress: () => {},
      });
      const fixtures = await loadFixtures(db, today, 10);
      const clinical = clinicalReadScenarios(await loadClinicalFixtures(db, BIG_PATIENT_ID, 10), clock.now());
      const counting = countingDb(db);
      const hearing = hearingOf(counting.db);
      const app = makeApp({ db: hearing.db, clock, config: { clinicTz: TIME_ZONE, clinicName: 'Bench Clinic' } });
      const medora = createMedoraServer(app, { log: () => {} });
      const twins = createTwinServer(counting.db, { config: app.config, now: () => clock.now() });
      // The statements a request sent, in any order (a request may send some at once).
      const sent = () => {
        const { inTransaction, outside } = counting.take();
        return [...inTransaction, ...outside].sort();
      };
      try {
        const [medoraUrl, twinUrl] = [await listening(medora), await listening(twins)];
        // Medora remembers sessions only once it hears the database's notices; the twin always does.
        await hearing.live;
        // The doctors' list also at a page both hospitals of a growth run fill, as main.ts asks for it.
        for (const scenario of [...readScenarios(fixtures), doctorsScenario(fixtures, 1), ...clinical]) {
          for (let i = 0; i < ROUNDS; i++) {
            const { method, path, headers } = scenario.next();
            const ask = async (base: string) => {
              sent();
              const answer = await fetch(`${base}${path}`, { method, headers });
              return { answer, statements: sent() };
            };
            const [medoraAsked, twinAsked] = [await ask(medoraUrl), await ask(twinUrl)];
            const [fromMedora, fromTwin] = [medoraAsked.answer, twinAsked.answer];
            // After the first request each has its session remembered: from then on both send the same statements.
            if (i > 0)
              assert.deepEqual(twinAsked.statements, medoraAsked.statements, `${scenario.name}: the statements sent`);
            assert.equal(fromMedora.status, scenario.expectStatus, `${scenario.name}: ${path}`);
            assert.equal(fromTwin.status, fromMedora.status, `${scenario.name}: ${path}`);
            assert.equal(fromTwin.headers.get('content-type'), fromMedora.headers.get('content-type'));
            // FHIR's links start with the address the client used: each server's own.
            const unbased = async (answer: Response, base: string) =>
              JSON.parse(JSON.stringify(await bodyOf(answer)).replaceAll(base, '<base>'));
            assert.deepEqual(
              await unbased(fromTwin, twinUrl),
              await unbased(fromMedora, medoraUrl),
              `${scenario.name}: ${path}`,
            );
          }
        }
        const anonymous = await fetch(`${twinUrl}/api/doctors`);
        assert.equal(anonymous.status, 401);
      } finally {
        twins.close();
        twins.closeIdleConnections();
        await closeGracefully(medora, 100);
      }
    });
  });
}
