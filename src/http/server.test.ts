import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { asyncFdWriter, batchedLines } from './access-log.ts';
import { present } from '../testing/assert.ts';
import type { HttpError } from './errors.ts';
import { match, route, routeTable } from './router.ts';

describe('the access log batch', () => {
  it('writes waiting lines together, once their time is up', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const written: string[] = [];
    const log = batchedLines((chunk) => written.push(chunk), 100);
    log.line('GET /api/doctors 200 1.2ms rid=a');
    log.line('GET /api/doctors 200 1.3ms rid=b');
    t.mock.timers.tick(99);
    assert.deepEqual(written, []);
    t.mock.timers.tick(1);
    assert.deepEqual(written, ['GET /api/doctors 200 1.2ms rid=a\nGET /api/doctors 200 1.3ms rid=b\n']);
    t.mock.timers.tick(1000);
    assert.equal(written.length, 1, 'nothing waits, so nothing more is written');
  });

  it('writes at once when the batch is full or when flushed, and never a line twice', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const written: string[] = [];
    const log = batchedLines((chunk) => written.push(chunk), 100, 10);
    log.line('12345');
    log.line('67890');
    assert.deepEqual(written, ['12345\n67890\n']);
    log.line('error');
    log.flush();
    log.flush();
    t.mock.timers.tick(100);
    assert.deepEqual(written, ['12345\n67890\n', 'error\n']);
  });
});

describe('the access log writer', () => {
  /** A file descriptor whose writes complete when the test says, each taking at most `max` bytes. */
  function fakeFd(max = Infinity) {
    const pending: { chunk: Buffer; done: (error: NodeJS.ErrnoException | null, written: number) => void }[] = [];
    const written: string[] = [];
    const fs = {
      write: (
        _fd: number,
        chunk: Buffer,
        _offset: number,
        _length: number,
        _position: null,
        done: (e: NodeJS.ErrnoException | null, n: number) => void,
      ) => pending.push({ chunk, done }),
      writeSync: (_fd: number, chunk: Buffer) => written.push(`sync:${chunk}`),
    };
    const complete = (error?: string) => {
      const { chunk, done } = present(pending.shift(), 'a pending write');
      if (error) return done(Object.assign(new Error(error), { code: error }), 0);
      const n = Math.min(max, chunk.length);
      written.push(chunk.subarray(0, n).toString());
      done(null, n);
    };
    return { fs: fs as unknown as Parameters<typeof asyncFdWriter>[1], pending, written, complete };
  }

  it('writes chunks in order, one at a time, and the rest of a partial write next', () => {
    const fd = fakeFd(3);
    const writer = asyncFdWriter(1, fd.fs);
    writer.write('abcde');
    writer.write('fg');
    assert.equal(fd.pending.length, 1, 'one write at a time');
    fd.complete();
    fd.complete();
    fd.complete();
    assert.deepEqual(fd.written, ['abc', 'de', 'fg']);
    assert.equal(fd.pending.length, 0);
  });

  it('drops a chunk the descriptor refuses, and at exit writes synchronously what was not handed over', () => {
    const fd = fakeFd();
    const writer = asyncFdWriter(1, fd.fs);
    writer.write('one');
    writer.write('two');
    fd.complete('EPIPE');
    assert.deepEqual(fd.written, []);
    writer.write('three');
    writer.drainSync();
    assert.deepEqual(fd.written, ['sync:three'], '"two" is being written by the thread pool, "three" waited behind it');
  });
});

describe('the router', () => {
  const ok = async () => ({});
  const listed = [
    route('GET', '/api/doctors', 'user', ok),
    route('GET', '/api/doctors/{id}', 'user', ok),
    route('PUT', '/api/admin/doctors/{id}', 'admin', ok),
    route('DELETE', '/api/admin/doctors/{id}', 'admin', ok),
    route('GET', '/api/appointments/available/{doctorId}', 'user', ok),
  ];
  const routes = routeTable(listed);

  it('finds a route without parameters by its path, and one with them by its pattern, decoded', () => {
    assert.equal(match(routes, 'GET', '/api/doctors').route, listed[0]);
    assert.deepEqual(match(routes, 'GET', '/api/doctors').params, {});
    const found = match(routes, 'GET', '/api/appointments/available/4%32');
    assert.equal(found.route, listed[4]);
    assert.deepEqual(found.params, { doctorId: '42' });
    assert.equal(match(routes, 'HEAD', '/api/doctors/7').route, listed[1]);
  });

  it('answers 405 with every allowed method when only the method is wrong, and 404 for an unknown path', () => {
    assert.throws(
      () => match(routes, 'POST', '/api/admin/doctors/3'),
      (e: HttpError) => e.status === 405 && e.headers.Allow === 'PUT, DELETE',
    );
    for (const path of ['/api/doctors/', '/api/doctors/1/2', '/api/doctorsx', '/api/doctor']) {
      assert.throws(
        () => match(routes, 'GET', path),
        (e: HttpError) => e.status === 404,
        path,
      );
    }
    assert.throws(
      () => match(routes, 'GET', '/api/doctors/%E0%A4%A'),
      (e: HttpError) => e.status === 400,
    );
  });

  it('answers as a walk of the table would: the first route that fits, whether or not it has parameters', () => {
    const overlapping = [
      route('GET', '/api/doctors/{id}', 'user', ok),
      route('GET', '/api/doctors/search', 'user', ok),
      route('POST', '/api/doctors/search', 'admin', ok),
      route('PATCH', '/api/{kind}/search', 'admin', ok),
      route('GET', '/api/notes', 'user', ok),
      route('DELETE', '/api/{kind}', 'admin', ok),
    ];
    const table = routeTable(overlapping);
    assert.equal(match(table, 'GET', '/api/doctors/search').route, overlapping[0]);
    assert.equal(match(table, 'POST', '/api/doctors/search').route, overlapping[2]);
    assert.equal(match(table, 'PATCH', '/api/doctors/search').route, overlapping[3]);
    assert.equal(match(table, 'GET', '/api/notes').route, overlapping[4]);
    assert.equal(match(table, 'DELETE', '/api/notes').route, overlapping[5]);
    assert.throws(
      () => match(table, 'PUT', '/api/doctors/search'),
      (e: HttpError) => e.status === 405 && e.headers.Allow === 'GET, HEAD, POST, PATCH',
    );
    assert.throws(
      () => match(table, 'PUT', '/api/notes'),
      (e: HttpError) => e.status === 405 && e.headers.Allow === 'GET, HEAD, DELETE',
    );
  });
});
