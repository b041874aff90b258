import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { cliActor } from '../shared/actor.ts';
import { type DomainError, invalid } from '../shared/errors.ts';
import type { ImportDeps, ImportTx } from './ports.ts';
import { readImportedTest } from '../lab/catalogue-import.ts';
import type { Units } from '../lab/units.ts';
import { importDoctors, importLabTests, type ImportedCredential } from './use-cases.ts';

const UNITS: Units = { isValid: (unit) => ['mmol/L', 'mg/dL', 'g/L'].includes(unit), convert: () => undefined };
import { at, only } from '../../testing/assert.ts';

/** A catalogue in memory; a transaction works on a copy that replaces it only when it commits. */
function fakeDeps(existing: { departments?: string[]; accounts?: Record<string, string> } = {}) {
  let committed = {
    doctors: [] as Record<string, unknown>[],
    departments: [...(existing.departments ?? [])],
    labTests: ['2823-3'],
  };
  const hashed: string[] = [];
  const deps: ImportDeps = {
    lookup: {
      departmentIds: async (names) =>
        new Map(
          committed.departments.map((n, i) => [n.toLowerCase(), i + 1] as const).filter(([n]) => names.includes(n)),
        ),
      specializationIds: async () => new Map(),
      accountRoles: async (emails) =>
        new Map(Object.entries(existing.accounts ?? {}).filter(([e]) => emails.includes(e))),
    },
    hasher: {
      hash: async (password) => {
        hashed.push(password);
        return `hash:${password}`;
      },
    },
    passwords: { generate: () => `pw-${hashed.length}-${Math.random()}` },
    transaction: async (fn) => {
      const working = structuredClone(committed);
      const tx: ImportTx = {
        createDepartment: async (body) => ({ id: working.departments.push(String(body.name)) }),
        createSpecialization: async () => ({ id: 1 }),
        createDoctor: async (body, passwordHash) => {
          if (!String(body.email).includes('@')) throw invalid({ email: ['must be a valid email address'] });
          return { id: working.doctors.push({ ...body, passwordHash }) };
        },
        createLabTest: async (fields) => {
          const { test, memberCodes } = readImportedTest(fields, UNITS);
          const missing = memberCodes.filter((code) => !working.labTests.includes(code));
          if (missing.length > 0) throw invalid({ members: [`${missing.join(', ')}: no such test`] });
          if (working.labTests.includes(test.code)) return undefined;
          return { id: working.labTests.push(test.code) };
        },
      };
      const result = await fn(tx);
      committed = working;
      return result;
    },
  };
  return { deps, hashed, committed: () => committed };
}

const run = (deps: ImportDeps, csv: string, options: { dryRun?: boolean; createMissing?: boolean } = {}) => {
  const saved: ImportedCredential[][] = [];
  const result = importDoctors(
    deps,
    { text: csv, format: 'csv' },
    { dryRun: false, createMissing: false, ...options, saveCredentials: async (c) => void saved.push(c) },
    cliActor(),
  );
  return { result, saved };
};

describe('importDoctors', () => {
  it('writes every doctor with the hash of the password it hands to saveCredentials', async () => {
    const fake = fakeDeps({ departments: ['Heart'] });
    const { result, saved } = run(fake.deps, 'name,email,department\nA,a@x.test,heart\nB,b@x.test,\n');
    assert.equal((await result).imported, 2);
    const credentials = only(saved, 'saved list');
    assert.deepEqual(
      credentials.map((c) => c.email),
      ['a@x.test', 'b@x.test'],
    );
    assert.deepEqual(
      fake.committed().doctors.map((d) => [d.email, d.department_id, d.passwordHash]),
      [
        ['a@x.test', 1, `hash:${at(credentials, 0).password}`],
        ['b@x.test', undefined, `hash:${at(credentials, 1).password}`],
      ],
    );
  });

  it('checks every row before hashing any password, and writes nothing when one is refused', async () => {
    const fake = fakeDeps();
    const { result, saved } = run(fake.deps, 'name,email\nA,a@x.test\nB,broken\nC,c@x.test\n');
    await assert.rejects(result, (error: DomainError) => {
      assert.deepEqual(error.fields, { 'line 3: email': ['must be a valid email address'] });
      return true;
    });
    assert.deepEqual(fake.hashed, []);
    assert.deepEqual(saved, []);
    assert.deepEqual(fake.committed().doctors, []);
  });

  it('skips doctors who exist and refuses an email another kind of account uses', async () => {
    const fake = fakeDeps({ accounts: { 'old@x.test': 'doctor', 'pat@x.test': 'patient' } });
    const skipped = await run(fake.deps, 'name,email\nOld,OLD@x.test\nNew,new@x.test\n').result;
    assert.deepEqual(skipped.skipped, [{ where: 'line 2', reason: 'OLD@x.test is already a doctor' }]);
    assert.equal(skipped.imported, 1);
    await assert.rejects(run(fake.deps, 'name,email\nPat,pat@x.test\n').result, /Nothing was imported/);
  });

  it('creates a missing department once for all rows naming it, only when asked to', async () => {
    const csv = 'name,email,department\nA,a@x.test,Lab\nB,b@x.test,LAB\n';
    await assert.rejects(run(fakeDeps().deps, csv).result, (error: DomainError) => {
      assert.deepEqual(Object.keys(error.fields ?? {}), ['line 2: department', 'line 3: department']);
      return true;
    });
    const fake = fakeDeps();
    const result = await run(fake.deps, csv, { createMissing: true }).result;
    assert.deepEqual(result.createdDepartments, ['Lab']);
    assert.deepEqual(fake.committed().departments, ['Lab']);
    assert.deepEqual(
      fake.committed().doctors.map((d) => d.department_id),
      [1, 1],
    );
  });

  it('on a dry run hashes nothing, saves no credentials and commits nothing', async () => {
    const fake = fakeDeps();
    const { result, saved } = run(fake.deps, 'name,email\nA,a@x.test\n', { dryRun: true });
    assert.deepEqual(await result, {
      dryRun: true,
      imported: 1,
      skipped: [],
      createdSpecializations: [],
      createdDepartments: [],
    });
    assert.deepEqual([fake.hashed, saved, fake.committed().doctors], [[], [], []]);
  });
});

describe('importLabTests', () => {
  const header =
    'kind,code_system,code,name,specimen_type,result_type,unit,answers,members,range_low,range_high,price,turnaround_minutes';
  const csv = (...rows: string[]) => [header, ...rows].join('\n');

  it('adds tests and a panel of them in file order, skipping a code already in the catalogue', async () => {
    const fake = fakeDeps();
    const result = await importLabTests(
      fake.deps,
      {
        text: csv(
          'test,loinc,2951-2,Sodium,serum,quantity,mmol/L,,,135,145,5.00,120',
          'test,local,HCG-Q,Pregnancy test,urine,coded,,positive|negative,,,,8,60',
          'panel,local,LYTES,Electrolytes,serum,,,,2951-2|2823-3,,,9.50,120',
          'test,loinc,2823-3,Potassium,serum,quantity,mmol/L,,,3.5,5.1,5.00,120',
        ),
        format: 'csv',
      },
      { dryRun: false },
      cliActor(),
    );
    assert.deepEqual(result, {
      dryRun: false,
      imported: 3,
      skipped: [{ where: 'line 5', reason: 'code 2823-3 is in the catalogue already' }],
    });
    assert.deepEqual(fake.committed().labTests, ['2823-3', '2951-2', 'HCG-Q', 'LYTES']);
  });

  it('reports every bad row by its line and writes nothing', async () => {
    const fake = fakeDeps();
    const refused = await importLabTests(
      fake.deps,
      {
        text: csv(
          'test,loinc,2951-2,Sodium,serum,quantity,mmol/L,,,135,145,5.00,120',
          'test,loinc,1742-6,ALT,serum,quantity,furlongs,,,,,4,120',
          'panel,local,P1,Panel,serum,quantity,,,,,,1,60',
          'test,snomed,X,Thing,blood,text,,,,,,ten,0',
          'panel,local,P2,Other panel,serum,,,,NOPE,,,1,60',
          'test,loinc,2951-2,Sodium again,serum,quantity,mmol/L,,,,,5,120',
        ),
        format: 'csv',
      },
      { dryRun: false },
      cliActor(),
    ).catch((error: DomainError) => error);
    assert.deepEqual((refused as DomainError).fields, {
      'line 7: code': ['repeats line 2'],
    });
    const bad = await importLabTests(
      fake.deps,
      {
        text: csv(
          'test,loinc,2951-2,Sodium,serum,quantity,mmol/L,,,135,145,5.00,120',
          'test,loinc,1742-6,ALT,serum,quantity,furlongs,,,,,4,120',
          'panel,local,P1,Panel,serum,quantity,,,,,,1,60',
          'test,snomed,X,Thing,blood,text,,,,,,ten,0',
          'panel,local,P2,Other panel,serum,,,,NOPE,,,1,60',
        ),
        format: 'csv',
      },
      { dryRun: false },
      cliActor(),
    ).catch((error: DomainError) => error);
    assert.match((bad as DomainError).message, /Nothing was imported: the file has 7 problems/);
    assert.deepEqual((bad as DomainError).fields, {
      'line 3: unit': ['furlongs is not a UCUM unit'],
      'line 4: result_type': ['a panel has none: its members are resulted'],
      'line 4: members': ['a panel needs its tests’ codes, separated by |'],
      'line 5: code_system': ['must be one of loinc, local'],
      'line 5: price': ['must be an amount such as 12.50'],
      'line 5: turnaround_minutes': ['must be whole minutes from 1 to 525600'],
      'line 6: members': ['NOPE: no such test'],
    });
    assert.deepEqual(fake.committed().labTests, ['2823-3'], 'all or nothing');
  });
});
