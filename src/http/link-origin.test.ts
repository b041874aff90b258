import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { DomainError } from '../domain/shared/errors.ts';
import { linkOrigin } from './link-origin.ts';

describe('the origin of the links the API hands out', () => {
  it('is PUBLIC_URL when it is set, whatever the request says its host is', () => {
    assert.equal(linkOrigin('https://clinic.example.org', false, 'evil.example'), 'https://clinic.example.org');
  });

  it("without PUBLIC_URL, is the request's own loopback address", () => {
    assert.equal(linkOrigin(undefined, false, '127.0.0.1:3000'), 'http://127.0.0.1:3000');
    assert.equal(linkOrigin(undefined, true, 'localhost:8443'), 'https://localhost:8443');
    assert.equal(linkOrigin(undefined, false, '[::1]:3000'), 'http://[::1]:3000');
  });

  it('without PUBLIC_URL, refuses any other host with 409 public_url_unset', () => {
    for (const host of [
      'evil.example',
      'localhost.evil.example',
      '127.0.0.1.evil.example:3000',
      'clinic.example.org',
      undefined,
    ]) {
      assert.throws(
        () => linkOrigin(undefined, false, host),
        (error: unknown) => error instanceof DomainError && error.code === 'public_url_unset',
        String(host),
      );
    }
  });
});
