import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';
import { only } from '../testing/assert.ts';

const HEADER =
  'kind,category,code_system,code,name,specimen_type,result_type,unit,answers,members,range_low,range_high,critical_low,critical_high,price,turnaround_minutes';
const csv = (...rows: string[]) => `${[HEADER, ...rows].join('\n')}\n`;

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora lab-tests`, () => {
    let database: CliDatabase;
    let dir: string;
    const medora = (...args: string[]) => database.medora(args);
    const file = async (name: string, text: string) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    };
    const tests = async () =>
      (await database.db.query<{ n: number }>('select count(*)::int as n from lab_tests'))[0]?.n;

    before(async () => {
      database = await openCliDatabase(target);
      dir = await mkdtemp(join(tmpdir(), 'medora-lab-tests-'));
    });
    after(() => database.drop());

    it('imports nothing from a file with bad rows, naming each by its line', async () => {
      const before = await tests();
      const run = await medora(
        'lab-tests',
        'import',
        await file(
          'bad.csv',
          csv(
            'test,laboratory,local,CRP-HS,hs-CRP,serum,quantity,mg/L,,,0,3,,,9.00,120',
            'test,laboratory,local,BAD-1,Bad unit,serum,quantity,furlongs,,,,,,,9.00,120',
            'panel,laboratory,local,BAD-2,Bad panel,serum,,,,NO-SUCH,,,,,9.00,120',
          ),
        ),
      );
      assert.equal(run.code, 1, run.stdout);
      assert.match(run.stderr, /^error: Nothing was imported: the file has 2 problems$/m);
      assert.match(run.stderr, /^ {2}line 3: unit: furlongs is not a UCUM unit$/m);
      assert.match(run.stderr, /^ {2}line 4: members: NO-SUCH: no such test in the catalogue or above$/m);
      assert.equal(await tests(), before, 'all or nothing');
    });

    it('imports tests and a panel of them, skips codes it has, lists them, and audits each', async () => {
      const path = await file(
        'good.csv',
        csv(
          'test,laboratory,local,CRP-HS,hs-CRP,serum,quantity,mg/L,,,0,3,,,9.00,120',
          'test,laboratory,local,COV-AG,SARS-CoV-2 antigen,swab,coded,,positive|negative,,,,,,12.00,30',
          'panel,laboratory,local,INFL,Inflammation panel,serum,,,,CRP-HS|4537-7,,,,,15.00,120',
          'test,laboratory,loinc,2823-3,Potassium,serum,quantity,mmol/L,,,3.5,5.1,2.5,6.5,5.00,120',
        ),
      );
      const dry = await medora('lab-tests', 'import', path, '--dry-run');
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /^Dry run: every row is valid; 3 lab tests would be imported\. Nothing was written\.$/m);
      const run = await medora('lab-tests', 'import', path);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Imported 3 lab tests\.$/m);
      assert.match(run.stdout, /^ {2}line 5: code 2823-3 is in the catalogue already$/m);

      const listed = await medora('lab-tests', 'list', '--search', 'inflammation', '--format', 'json');
      assert.equal(listed.code, 0, listed.stderr);
      const panel = only(JSON.parse(listed.stdout) as { code: string; kind: string; price_cents: number }[]);
      assert.deepEqual([panel.code, panel.kind, panel.price_cents], ['INFL', 'panel', 1500]);
      const members = await database.db.query<{ code: string }>(
        `select t.code from lab_panel_members m join lab_tests t on t.id = m.test_id
         join lab_tests p on p.id = m.panel_id where p.code = 'INFL' order by m.position`,
      );
      assert.deepEqual(
        members.map((m) => m.code),
        ['CRP-HS', '4537-7'],
      );
      const audited = await database.db.query<{ code: string }>(
        `select details->>'code' as code from audit_log where entity = 'lab_test' and action = 'create' order by id`,
      );
      assert.deepEqual(
        audited.map((a) => a.code),
        ['CRP-HS', 'COV-AG', 'INFL'],
      );
      const table = await medora('lab-tests', 'list', '--search', 'hs-crp', '--format', 'csv');
      assert.match(table.stdout, /CRP-HS,hs-CRP,test,laboratory,mg\/L,900,120,true/);
    });
  });
}
