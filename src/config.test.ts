import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { loadConfig } from './config.ts';

describe('configuration from the environment', () => {
  it('keeps twice the cores as database connections unless told otherwise', () => {
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC' }).databasePoolSize, 2 * availableParallelism());
    assert.equal(loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: '12' }).databasePoolSize, 12);
  });

  it('stops with the variable named when a value is wrong', () => {
    assert.throws(() => loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: '0' }), /DATABASE_POOL_SIZE must be a whole number of connections, got "0"/);
    assert.throws(() => loadConfig({ CLINIC_TZ: 'UTC', DATABASE_POOL_SIZE: 'many' }), /DATABASE_POOL_SIZE/);
    assert.throws(() => loadConfig({ PORT: '70000' }), /PORT must be a port number/);
    assert.throws(() => loadConfig({ CLINIC_TZ: 'Mars/Olympus' }), /CLINIC_TZ must be an IANA time zone/);
  });
});
