import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../shared/errors.ts';
import { MAX_IMAGE_BYTES } from '../shared/files.ts';
import { readPhoto, refuseWhenInUse } from './catalogue.ts';

const BELONG = { one: 'belongs to', many: 'belong to' };

function inUseMessage(run: () => void): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DomainError);
    assert.equal(error.code, 'in_use');
    return error.message;
  }
  assert.fail('expected a conflict');
}

describe('refuseWhenInUse', () => {
  it('passes a row nothing uses', () => {
    refuseWhenInUse({ doctors: 0, rooms: 0 }, BELONG, 'this department');
  });

  it('says what still uses the row, with the verb agreeing', () => {
    assert.equal(
      inUseMessage(() => refuseWhenInUse({ doctors: 1 }, BELONG, 'this department')),
      '1 doctor still belongs to this department',
    );
    assert.equal(
      inUseMessage(() => refuseWhenInUse({ doctors: 3, rooms: 2, appointments: 0 }, BELONG, 'this department')),
      '3 doctors and 2 rooms still belong to this department',
    );
    assert.equal(
      inUseMessage(() => refuseWhenInUse({ doctors: 1, rooms: 1, appointments: 40 }, BELONG, 'this department')),
      '1 doctor, 1 room and 40 appointments still belong to this department',
    );
  });
});

describe('readPhoto', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

  it('tells the type by the bytes, whatever the file is called', () => {
    assert.equal(readPhoto({ filename: 'photo.jpg', bytes: png })?.contentType, 'image/png');
    assert.equal(readPhoto(undefined), undefined);
    assert.equal(readPhoto(''), undefined);
  });

  it('refuses what is not an image with invalid naming the field', () => {
    assert.throws(
      () => readPhoto({ filename: 'a.png', bytes: new TextEncoder().encode('GIF89a') }),
      (e: DomainError) => e.kind === 'invalid' && !!e.fields?.photo,
    );
    assert.throws(
      () => readPhoto('a string'),
      (e: DomainError) => e.kind === 'invalid' && !!e.fields?.photo,
    );
  });

  it('refuses more than 2 MiB as too large', () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(png);
    assert.throws(
      () => readPhoto({ filename: 'big.png', bytes: big }),
      (e: DomainError) => e.kind === 'too_large',
    );
  });
});
