import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora catalogue and schedule commands`, () => {
    let database: CliDatabase;
    const medora = (...args: string[]) => database.medora(args);
    const json = async (...args: string[]) => {
      const run = await medora(...args, '--format', 'json');
      assert.equal(run.code, 0, run.stderr);
      return JSON.parse(run.stdout);
    };

    before(async () => {
      database = await openCliDatabase(target);
    });
    after(() => database.drop());

    it('adds, lists and removes departments through the same rules as the API', async () => {
      const cardiology = await json('departments', 'add', '--name', 'Cardiology', '--description', 'Hearts');
      assert.deepEqual(cardiology, { id: cardiology.id, name: 'Cardiology', description: 'Hearts' });
      await json('departments', 'add', '--name', 'Neurology');
      assert.deepEqual(
        (await json('departments', 'list')).map((d: { name: string }) => d.name),
        ['Cardiology', 'Neurology'],
      );

      const taken = await medora('departments', 'add', '--name', 'CARDIOLOGY');
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /^error: A department with this name already exists$/m);

      await json('rooms', 'add', '--name', 'C-1', '--department-id', String(cardiology.id));
      const inUse = await medora('departments', 'remove', String(cardiology.id));
      assert.equal(inUse.code, 1);
      assert.match(inUse.stderr, /^error: 1 room still belongs to this department$/m);

      const neurology = (await json('departments', 'list', '--search', 'neuro'))[0];
      const removed = await medora('departments', 'remove', String(neurology.id));
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal((await json('departments', 'list')).length, 1);
    });

    it('exits 1 naming the field for a bad value, and 2 for a missing option or unknown command', async () => {
      const badRoom = await medora('rooms', 'add', '--name', 'X', '--department-id', 'abc');
      assert.equal(badRoom.code, 1);
      assert.match(badRoom.stderr, /department_id: must be a valid id/);
      const blank = await medora('specializations', 'add', '--name', ' ');
      assert.equal(blank.code, 1);
      assert.match(blank.stderr, /name: is required/);
      const missing = await medora('diseases', 'add');
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /required option '--name <name>' not specified/);
      const unknown = await medora('wards', 'list');
      assert.equal(unknown.code, 2);
      const notFound = await medora('rooms', 'remove', '999');
      assert.equal(notFound.code, 1);
      assert.match(notFound.stderr, /^error: Room not found$/m);
    });

    it('adds a doctor with the password from stdin and sets their weekly slots by email', async () => {
      const add = await database.medora(
        [
          'doctors',
          'add',
          '--name',
          'Dr. Who',
          '--email',
          'who@x.test',
          '--gender',
          'other',
          '--password-stdin',
          '--format',
          'json',
        ],
        'correct horse battery\n',
      );
      assert.equal(add.code, 0, add.stderr);
      assert.equal(JSON.parse(add.stdout).email, 'who@x.test');
      const badEmail = await database.medora(
        ['doctors', 'add', '--name', 'Dr. No', '--email', 'nope', '--password-stdin'],
        'pw-long-enough\n',
      );
      assert.equal(badEmail.code, 1);
      assert.match(badEmail.stderr, /email: must be a valid email address/);

      const schedule = await json(
        'schedules',
        'set',
        'WHO@x.test',
        '--days',
        'mon-wed,fri',
        '--hours',
        '09:00-10:30',
        '--slot',
        '45',
      );
      assert.deepEqual(
        schedule.slots.map(
          (s: { weekday: number; start_time: string; end_time: string }) =>
            `${s.weekday} ${s.start_time}-${s.end_time}`,
        ),
        [
          '1 09:00-09:45',
          '1 09:45-10:30',
          '2 09:00-09:45',
          '2 09:45-10:30',
          '3 09:00-09:45',
          '3 09:45-10:30',
          '5 09:00-09:45',
          '5 09:45-10:30',
        ],
      );
      assert.equal((await json('schedules', 'show', 'who@x.test')).slots.length, 8);

      const badHours = await medora(
        'schedules',
        'set',
        'who@x.test',
        '--days',
        'sat',
        '--hours',
        '09:00-09:20',
        '--slot',
        '30',
      );
      assert.equal(badHours.code, 1);
      assert.match(badHours.stderr, /slot: must fit between start_time and end_time/);
      const badDays = await medora(
        'schedules',
        'set',
        'who@x.test',
        '--days',
        'someday',
        '--hours',
        '09:00-10:00',
        '--slot',
        '30',
      );
      assert.equal(badDays.code, 1);
      assert.match(badDays.stderr, /days: must be weekdays such as mon-fri/);
      const nobody = await medora(
        'schedules',
        'set',
        'nobody@x.test',
        '--days',
        'mon',
        '--hours',
        '09:00-10:00',
        '--slot',
        '30',
      );
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /no active doctor signs in with nobody@x\.test/);

      const lunch = await json(
        'schedule',
        'set',
        'who@x.test',
        '--days',
        'mon-fri',
        '--hours',
        '09:00-12:30,13:30-17:00',
        '--slot',
        '20',
      );
      assert.deepEqual(
        lunch.hours
          .slice(0, 2)
          .map(
            (h: { start_time: string; end_time: string; slot_minutes: number }) =>
              `${h.start_time}-${h.end_time}/${h.slot_minutes}`,
          ),
        ['09:00-12:30/20', '13:30-17:00/20'],
      );
      const overlap = await medora(
        'schedule',
        'set',
        'who@x.test',
        '--days',
        'mon',
        '--hours',
        '09:00-12:30,12:00-17:00',
        '--slot',
        '20',
      );
      assert.match(overlap.stderr, /hours: Monday 12:00–17:00 overlaps Monday 09:00–12:30/);
      const leave = await json(
        'schedule',
        'leave',
        'add',
        'who@x.test',
        '--from',
        '2099-03-03',
        '--hours',
        '13:00-17:00',
      );
      assert.deepEqual(
        [leave.time_off.kind, leave.time_off.start_time, leave.visits_to_move_total],
        ['leave', '13:00', 0],
      );
      const closure = await json('closures', 'add', '--from', '2099-12-25', '--reason', 'Christmas Day');
      assert.equal(closure.time_off.kind, 'closure');
      const listed = await json('schedule', 'leave', 'list', 'who@x.test');
      assert.deepEqual(
        listed.time_off.map((t: { kind: string }) => t.kind),
        ['leave', 'closure'],
      );
      assert.equal((await json('closures', 'remove', String(closure.time_off.id))).time_off[0].reason, 'Christmas Day');
      const noReason = await medora('closures', 'add', '--from', '2099-12-26');
      assert.match(noReason.stderr, /reason: is required/);
    });

    it('adds, lists and deactivates receptionists, who then cannot sign in', async () => {
      const add = await database.medora(
        [
          'receptionists',
          'add',
          '--name',
          'Rita Reyes',
          '--email',
          'rita@x.test',
          '--password-stdin',
          '--format',
          'json',
        ],
        'correct horse battery\n',
      );
      assert.equal(add.code, 0, add.stderr);
      const rita = JSON.parse(add.stdout);
      assert.deepEqual(rita, { id: rita.id, name: 'Rita Reyes', email: 'rita@x.test', active: 'yes' });
      const taken = await database.medora(
        ['receptionists', 'add', '--name', 'Again', '--email', 'RITA@x.test', '--password-stdin'],
        'correct horse battery\n',
      );
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /already registered/);

      const removed = await medora('receptionists', 'remove', String(rita.id));
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stdout, /^Deactivated receptionist \d+: they can no longer sign in\.$/m);
      assert.deepEqual(
        (await json('receptionists', 'list', '--search', 'rita')).map((r: { active: string }) => r.active),
        ['no'],
      );
      await assert.rejects(
        database.app.auth.login({ email: 'rita@x.test', password: 'correct horse battery' }, { ip: '127.0.0.1' }),
        /Invalid email or password/,
      );
      const unknown = await medora('receptionists', 'remove', '999999');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /^error: Receptionist not found$/m);
    });

    it('adds nurses to a department, lists them with it and deactivates them', async () => {
      const ward = await json('departments', 'add', '--name', 'Ward North');
      const add = (department: string, email: string) =>
        database.medora(
          [
            'nurses',
            'add',
            '--name',
            'Nora Night',
            '--email',
            email,
            '--department-id',
            department,
            '--password-stdin',
            '--format',
            'json',
          ],
          'correct horse battery\n',
        );
      const nowhere = await add('999999', 'nobody@x.test');
      assert.equal(nowhere.code, 1);
      assert.match(nowhere.stderr, /department_id: is not a department/);
      const made = await add(String(ward.id), 'nora@x.test');
      assert.equal(made.code, 0, made.stderr);
      const nora = JSON.parse(made.stdout);
      assert.deepEqual(nora, {
        id: nora.id,
        name: 'Nora Night',
        email: 'nora@x.test',
        department: 'Ward North',
        active: 'yes',
      });
      const removed = await medora('nurses', 'remove', String(nora.id));
      assert.match(removed.stdout, /^Deactivated nurse \d+: they can no longer sign in\.$/m);
      assert.deepEqual(
        (await json('nurses', 'list', '--search', 'nora')).map((r: { active: string }) => r.active),
        ['no'],
      );
    });
  });
}
