import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argon2Hasher } from '../security.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';
import { at, only, present } from '../testing/assert.ts';

const SPECIALIZATIONS = ['Cardiology', 'Dermatology', 'Neurology', 'Pediatrics', 'Oncology'];
const DEPARTMENTS = ['Heart Centre', 'Skin Clinic', 'Brain Unit', "Children's Ward"];

/** A staff list: header on line 1, doctor i on line i + 2. */
function staffCsv(count: number, tag: string, edit: (i: number, cells: string[]) => string[] = (_, c) => c): string {
  const lines = ['Name,Email,Phone,Gender,Specialization,Department,Bio'];
  for (let i = 0; i < count; i++) {
    const cells = [
      `"Dr. ${tag} ${i}, MD"`,
      `${tag}.${i}@hospital.test`,
      `+1 555 ${String(i).padStart(4, '0')}`,
      at(['male', 'female', 'other'], i % 3),
      at(SPECIALIZATIONS, i % SPECIALIZATIONS.length).toLowerCase(), // names match case-insensitively
      at(DEPARTMENTS, i % DEPARTMENTS.length),
      '"Says ""hello"",\nthen listens"',
    ];
    lines.push(edit(i, cells).join(','));
  }
  return `${lines.join('\n')}\n`;
}

// Sized to the claims (one bad line among 25; a file of many doctors in one go); IMPORT_ROWS=500 for a full-size run.
const ROWS = Number(process.env.IMPORT_ROWS ?? 25);
const BAD = Math.floor(ROWS / 2);

const count = async (database: CliDatabase, sql: string) =>
  only(await database.db.query<{ n: number }>(`select count(*)::int as n from ${sql}`)).n;

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora import`, () => {
    let database: CliDatabase;
    let dir: string;
    const medora = (...args: string[]) => database.medora(args);
    const file = async (name: string, text: string) => {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    };

    before(async () => {
      database = await openCliDatabase(target);
      dir = await mkdtemp(join(tmpdir(), 'medora-import-'));
      await medora('specializations', 'add', '--name', 'Cardiology');
    });
    after(() => database.drop());

    it('imports nothing from a file with one bad line and names the line', async () => {
      // Each doctor is a multi-line CSV record (the bio), so doctor i starts on file line 2 + 2i.
      const csv = staffCsv(ROWS, 'bad', (i, cells) => (i === BAD ? cells.with(1, 'not-an-email') : cells));
      const credentials = join(dir, 'bad-credentials.csv');
      const run = await medora(
        'import',
        'doctors',
        await file('bad.csv', csv),
        '--create-missing',
        '--credentials-out',
        credentials,
      );
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^error: Nothing was imported: the file has 1 problem$/m);
      assert.match(run.stderr, new RegExp(`^ {2}line ${2 + 2 * BAD}: email: must be a valid email address$`, 'm'));
      assert.equal(await count(database, 'doctors'), 0);
      assert.equal(await count(database, 'departments'), 0, 'departments it would have created are rolled back too');
      assert.equal(existsSync(credentials), false, 'no credentials file is left for accounts that do not exist');
    });

    it('imports a many-doctor CSV in one go, creating missing specializations and departments', async () => {
      const credentials = join(dir, 'credentials.csv');
      const run = await medora(
        'import',
        'doctors',
        await file('staff.csv', staffCsv(ROWS, 'staff')),
        '--create-missing',
        '--credentials-out',
        credentials,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^Imported ${ROWS} doctors\\.$`, 'm'));
      assert.match(run.stdout, /Created specialization "dermatology", .*department "Heart Centre"/);
      assert.equal(await count(database, "doctors d join users u on u.id = d.user_id where u.role = 'doctor'"), ROWS);
      assert.equal(await count(database, 'specializations'), 5);
      assert.equal(
        await count(
          database,
          "doctors d join specializations s on s.id = d.specialization_id where s.name = 'Cardiology'",
        ),
        Math.ceil(ROWS / SPECIALIZATIONS.length),
      );

      assert.equal((await stat(credentials)).mode & 0o777, 0o600);
      const lines = (await readFile(credentials, 'utf8')).trim().split('\r\n');
      assert.equal(at(lines, 0), 'name,email,password');
      assert.equal(lines.length, ROWS + 1);
      const match = /^".*",(.*),(.*)$/.exec(at(lines, 1));
      const [email, password] = [present(match?.[1]), present(match?.[2])];
      assert.equal(email, 'staff.0@hospital.test');
      assert.ok(!run.stdout.includes(password) && !run.stderr.includes(password), 'passwords are never printed');
      const { hash } = only(
        await database.db.query<{ hash: string }>(`select password_hash as hash from users where email = $1`, [email]),
      );
      assert.ok(await argon2Hasher.verify(hash, password), 'the written password signs the doctor in');
      // A password the CSV's formula guard had quoted would not be the password: none may begin as a formula does.
      assert.deepEqual(
        lines.slice(1).filter((line) => /,'[^,]*$/.test(line)),
        [],
      );
      const [doctor] = await database.db.query(
        `select u.name, d.bio from doctors d join users u on u.id = d.user_id where u.email = 'staff.1@hospital.test'`,
      );
      assert.deepEqual(doctor, { name: 'Dr. staff 1, MD', bio: 'Says "hello",\nthen listens' });
    });

    it('reports doctors who exist already instead of doubling them', async () => {
      const csv = 'name,email\nDr. Again,STAFF.3@hospital.test\nDr. New,new.one@hospital.test\n';
      const run = await medora(
        'import',
        'doctors',
        await file('again.csv', csv),
        '--credentials-out',
        join(dir, 'again.csv.out'),
      );
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Imported 1 doctor\.$/m);
      assert.match(run.stdout, /^ {2}line 2: STAFF\.3@hospital\.test is already a doctor$/m);
      assert.equal(await count(database, 'doctors'), ROWS + 1);
    });

    it('refuses a repeated email and a department the catalogue lacks without --create-missing', async () => {
      const csv =
        'name,email,department\nDr. A,a@x.test,Heart Centre\nDr. B,A@x.test,Heart Centre\nDr. C,c@x.test,Moon Base\n';
      const run = await medora('import', 'doctors', await file('mixed.csv', csv), '--dry-run');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^ {2}line 3: email: repeats line 2$/m);
      assert.match(run.stderr, /^ {2}line 4: department: there is no department named "Moon Base"$/m);
    });

    it('checks every row on --dry-run and writes nothing', async () => {
      const json = JSON.stringify([
        { name: 'Dr. Dry', email: 'dry@x.test', specialization: 'Surgery' },
        { name: 'Dr. Run', email: 'run@x.test', gender: 'male' },
      ]);
      const run = await medora('import', 'doctors', await file('dry.json', json), '--dry-run', '--create-missing');
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Dry run: every row is valid; 2 doctors would be imported\. Nothing was written\./);
      assert.match(run.stdout, /Would create specialization "Surgery"\./);
      assert.equal(await count(database, "users where email in ('dry@x.test', 'run@x.test')"), 0);
      assert.equal(await count(database, "specializations where name = 'Surgery'"), 0);
    });

    it('names JSON rows by item number', async () => {
      const json = JSON.stringify([
        { name: 'Dr. Ok', email: 'ok@x.test' },
        { name: 'Dr. Odd', email: 'odd@x.test', gender: 'robot' },
      ]);
      const run = await medora('import', 'doctors', await file('odd.json', json), '--dry-run');
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^ {2}item 2: gender: must be one of male, female, other$/m);
    });

    it('refuses an unknown column before reading any row', async () => {
      const run = await medora(
        'import',
        'doctors',
        await file('typo.csv', 'name,emial\nDr. X,x@x.test\n'),
        '--dry-run',
      );
      assert.equal(run.code, 1);
      assert.match(run.stderr, /file: unknown column "emial"/);
    });

    it('imports departments and skips names that exist in any letter case', async () => {
      const csv = 'name,description\nheart centre,dup\nRadiology,"Scans, X-rays"\n';
      const run = await medora('import', 'departments', await file('departments.csv', csv));
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Imported 1 department\.$/m);
      assert.match(run.stdout, /line 2: department "heart centre" already exists/);
      const list = await medora('departments', 'list', '--search', 'radio', '--format', 'json');
      assert.deepEqual(
        JSON.parse(list.stdout).map((d: { name: string; description: string }) => [d.name, d.description]),
        [['Radiology', 'Scans, X-rays']],
      );
    });

    it('exits 2 when --credentials-out is missing, and 1 when the file to import does not exist', async () => {
      const csv = await file('one.csv', 'name,email\nDr. One,one@x.test\n');
      const missingOption = await medora('import', 'doctors', csv);
      assert.equal(missingOption.code, 2);
      assert.match(missingOption.stderr, /--credentials-out/);
      const missingFile = await medora('import', 'departments', join(dir, 'nope.csv'));
      assert.equal(missingFile.code, 1);
      assert.match(missingFile.stderr, /^error: file: .*nope\.csv cannot be read \(ENOENT\)$/m);
    });
  });
}
