import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { batchedLines } from './server.ts';
import { HttpError } from './errors.ts';
import { match, route } from './router.ts';

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

describe('the router', () => {
  const ok = async () => ({});
  const routes = [
    route('GET', '/api/doctors', 'user', ok),
    route('GET', '/api/doctors/{id}', 'user', ok),
    route('PUT', '/api/admin/doctors/{id}', 'admin', ok),
    route('DELETE', '/api/admin/doctors/{id}', 'admin', ok),
    route('GET', '/api/appointments/available/{doctorId}', 'user', ok),
  ];

  it('finds a route without parameters by its path, and one with them by its pattern, decoded', () => {
    assert.equal(match(routes, 'GET', '/api/doctors').route, routes[0]);
    assert.deepEqual(match(routes, 'GET', '/api/doctors').params, {});
    const found = match(routes, 'GET', '/api/appointments/available/4%32');
    assert.equal(found.route, routes[4]);
    assert.deepEqual(found.params, { doctorId: '42' });
    assert.equal(match(routes, 'HEAD', '/api/doctors/7').route, routes[1]);
  });

  it('answers 405 with every allowed method when only the method is wrong, and 404 for an unknown path', () => {
    assert.throws(() => match(routes, 'POST', '/api/admin/doctors/3'), (e: HttpError) => e.status === 405 && e.headers.Allow === 'PUT, DELETE');
    for (const path of ['/api/doctors/', '/api/doctors/1/2', '/api/doctorsx', '/api/doctor']) {
      assert.throws(() => match(routes, 'GET', path), (e: HttpError) => e.status === 404, path);
    }
    assert.throws(() => match(routes, 'GET', '/api/doctors/%E0%A4%A'), (e: HttpError) => e.status === 400);
  });
});
