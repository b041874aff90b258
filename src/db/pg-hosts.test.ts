import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { hostList } from './pg-hosts.ts';
import { limitsBegin, roleDefaultsMatch } from './session-limits.ts';

describe('a multi-host URL', () => {
  it('gives one URL per host, in order, without target_session_attrs, keeping the rest', () => {
    assert.deepEqual(
      hostList('postgres://medora:s%40cret@db-a:5432,db-b:6432/medora?target_session_attrs=read-write&sslmode=require'),
      {
        hosts: [
          { host: 'db-a', port: 5432 },
          { host: 'db-b', port: 6432 },
        ],
        urls: [
          'postgres://medora:s%40cret@db-a:5432/medora?sslmode=require',
          'postgres://medora:s%40cret@db-b:6432/medora?sslmode=require',
        ],
      },
    );
  });

  it('leaves a one-host URL and a Unix socket directory as they are', () => {
    assert.deepEqual(hostList('postgres://postgres@127.0.0.1:5432/test').urls, [
      'postgres://postgres@127.0.0.1:5432/test',
    ]);
    assert.deepEqual(hostList('postgres://postgres@%2Ftmp%2Fdata/postgres').urls, [
      'postgres://postgres@%2Ftmp%2Fdata/postgres',
    ]);
    assert.deepEqual(hostList('postgres://u@h/db?target_session_attrs=read-write').urls, ['postgres://u@h/db']);
  });
  it('gives each host its own port, 5432 when it names none, and reads IPv6 addresses in brackets', () => {
    assert.deepEqual(hostList('postgres://u@db-a,db-b:6432/medora'), {
      hosts: [
        { host: 'db-a', port: 5432 },
        { host: 'db-b', port: 6432 },
      ],
      urls: ['postgres://u@db-a/medora', 'postgres://u@db-b:6432/medora'],
    });
    assert.deepEqual(hostList('postgresql://u:p@[::1]:5433,[fd00::2]/medora?target_session_attrs=read-write'), {
      hosts: [
        { host: '::1', port: 5433 },
        { host: 'fd00::2', port: 5432 },
      ],
      urls: ['postgresql://u:p@[::1]:5433/medora', 'postgresql://u:p@[fd00::2]/medora'],
    });
    assert.deepEqual(hostList('postgres://%2Fvar%2Frun%2Fpostgresql,db-b/medora').hosts, [
      { host: '/var/run/postgresql', port: 5432 },
      { host: 'db-b', port: 5432 },
    ]);
  });

  it('drops target_session_attrs wherever it stands among the parameters, keeping the others and a fragment', () => {
    const urls = (query: string) => hostList(`postgres://u@a:1,b:2/medora${query}`).urls;
    assert.deepEqual(urls('?sslmode=require&target_session_attrs=read-write&application_name=medora'), [
      'postgres://u@a:1/medora?sslmode=require&application_name=medora',
      'postgres://u@b:2/medora?sslmode=require&application_name=medora',
    ]);
    assert.deepEqual(urls('?sslmode=require&target_session_attrs=read-write'), [
      'postgres://u@a:1/medora?sslmode=require',
      'postgres://u@b:2/medora?sslmode=require',
    ]);
    assert.deepEqual(urls('?target_session_attrs=read-write#x'), [
      'postgres://u@a:1/medora#x',
      'postgres://u@b:2/medora#x',
    ]);
  });

  it('leaves what is not a postgres:// URL to pg', () => {
    assert.deepEqual(hostList('host=/tmp dbname=medora'), { hosts: [], urls: ['host=/tmp dbname=medora'] });
  });
});

describe("a pooled transaction's limits", () => {
  it('are set in its begin, each local to it', () => {
    assert.equal(
      limitsBegin({ statementMs: 5000, lockMs: 2000, idleInTransactionMs: 10_000 }),
      'begin; set local statement_timeout = 5000; set local lock_timeout = 2000; set local idle_in_transaction_session_timeout = 10000; set local jit = off',
    );
  });

  it("let a statement run on the server connection's defaults only when they are the ones it needs", () => {
    const defaults = { statementMs: 5000, lockMs: 200, idleInTransactionMs: 10_000 };
    assert.equal(roleDefaultsMatch(defaults, defaults), true);
    assert.equal(roleDefaultsMatch(defaults, { ...defaults, lockMs: 2000 }), false);
    assert.equal(roleDefaultsMatch(defaults, { ...defaults, statementMs: 600_000 }), false);
    assert.equal(roleDefaultsMatch(undefined, defaults), false);
  });
});
