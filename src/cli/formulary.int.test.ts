import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { only } from '../testing/assert.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora formulary`, () => {
    let database: CliDatabase;
    let dir: string;
    const medora = (...args: string[]) => database.medora(args);
    const file = async (name: string, text: string) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    };
    const listed = async (...args: string[]) => {
      const run = await medora('formulary', 'list', ...args, '--format', 'json');
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout) as { generic_name: string; form: string; routes: string; price: string | null }[];
    };
    const imports = () =>
      database.db.query<{ details: { created: number; updated: number } }>(
        `select details from audit_log where entity = 'formulary' and action = 'import'`,
      );

    before(async () => {
      database = await openCliDatabase(target);
      dir = await mkdtemp(join(tmpdir(), 'medora-formulary-'));
    });
    after(() => database.drop());

    it('lists the starter formulary, searched by generic name', async () => {
      assert.ok((await listed()).length >= 50);
      const found = await listed('--search', 'paracet');
      assert.deepEqual(found.map((m) => m.form).sort(), ['infusion', 'syrup', 'tablet']);
      assert.ok(found.every((m) => m.generic_name === 'Paracetamol'));
    });

    it('imports nothing from a file with bad rows, naming each bad line and field', async () => {
      const csv = [
        'generic_name,form,strength,routes,dose_unit,price',
        'Fexofenadine,tablet,120 mg,oral,mg,0.12',
        'Mystery,tablet,5 mg,chewed,mg,',
        'Nonsense,tablet,1 mg,oral,mgg,',
        'fexofenadine,tablet,120 mg,oral,mg,0.15',
      ].join('\n');
      const run = await medora('formulary', 'import', await file('bad.csv', csv));
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: Nothing was imported: the file has 3 problems$/m);
      assert.match(run.stderr, /^ {2}line 3: routes/m);
      assert.match(run.stderr, /^ {2}line 4: dose_unit/m);
      assert.match(run.stderr, /^ {2}line 5: generic_name: repeats the medicine of line 2$/m);
      assert.deepEqual(await listed('--search', 'fexofenadine'), []);
      assert.equal((await imports()).length, 0);
    });

    it('adds new medicines and updates those listed, in one audited import', async () => {
      const csv = [
        'Generic Name,Form,Strength,Routes,Dose Unit,Price',
        'Fexofenadine,tablet,120 mg,oral,mg,0.12',
        'Paracetamol,infusion,1 g/100 mL,iv;oral,mg,5.00',
        'Ondansetron,injection,2 mg/mL,iv|im,mg,',
      ].join('\r\n');
      const run = await medora('formulary', 'import', await file('good.csv', csv));
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Imported the formulary: 2 added, 1 updated\.$/m);
      const infusion = only((await listed('--search', 'paracetamol')).filter((m) => m.form === 'infusion'));
      assert.deepEqual([infusion.routes, infusion.price], ['iv oral', '5.00']);
      assert.equal(only(await listed('--search', 'fexofenadine')).price, '0.12');
      assert.deepEqual(only(await imports()).details, { created: 2, updated: 1 });
    });
  });
}
