import { describe, it } from './testing/node-test.ts';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { DomainError } from './domain/shared/errors.ts';
import { keysFromPem, signerFromPem } from './audit-signing.ts';

const pair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
};
const invalidKey = (pattern: RegExp) => (error: unknown) =>
  error instanceof DomainError && error.code === 'audit_key_invalid' && pattern.test(error.message);

describe('Ed25519 keys for audit checkpoints', () => {
  it('signs with the private key, and only its public half verifies, under one key id', () => {
    const ours = pair();
    const signer = signerFromPem(ours.privatePem, 'AUDIT_SIGNING_KEY_FILE');
    const [published] = keysFromPem(ours.publicPem, 'AUDIT_VERIFY_KEY_FILE');
    const [other] = keysFromPem(pair().publicPem, 'AUDIT_VERIFY_KEY_FILE');
    assert.ok(published && other);
    const signature = signer.sign('medora-audit-checkpoint:v1\n1\n00\n2026-06-10T08:00:00.000Z');
    assert.equal(Buffer.from(signature, 'base64').length, 64);
    assert.match(signer.keyId, /^[0-9a-f]{16}$/);
    assert.equal(published.keyId, signer.keyId);
    assert.notEqual(other.keyId, signer.keyId);
    assert.equal(published.verifies('medora-audit-checkpoint:v1\n1\n00\n2026-06-10T08:00:00.000Z', signature), true);
    assert.equal(published.verifies('medora-audit-checkpoint:v1\n2\n00\n2026-06-10T08:00:00.000Z', signature), false);
    assert.equal(other.verifies('medora-audit-checkpoint:v1\n1\n00\n2026-06-10T08:00:00.000Z', signature), false);
    assert.equal(published.verifies('anything', 'not base64 at all'), false);
  });

  it('reads every public key of a file, as kept after a key was replaced', () => {
    const [a, b] = [pair(), pair()];
    const keys = keysFromPem(`old key:\n${a.publicPem}\nnew key:\n${b.publicPem}`, 'AUDIT_VERIFY_KEY_FILE');
    assert.deepEqual(
      keys.map((key) => key.keyId),
      [signerFromPem(a.privatePem, 'x').keyId, signerFromPem(b.privatePem, 'x').keyId],
    );
  });

  it('refuses what is not an Ed25519 key, naming the variable', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    assert.throws(
      () => signerFromPem('garbage', 'AUDIT_SIGNING_KEY_FILE'),
      invalidKey(/^AUDIT_SIGNING_KEY_FILE must hold a private key/),
    );
    assert.throws(
      () => signerFromPem(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'AUDIT_SIGNING_KEY_FILE'),
      invalidKey(/holds a rsa key/),
    );
    assert.throws(
      () => keysFromPem(pair().privatePem, 'AUDIT_VERIFY_KEY_FILE'),
      invalidKey(/^AUDIT_VERIFY_KEY_FILE must hold one or more public keys/),
    );
    assert.throws(
      () => keysFromPem(rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'AUDIT_VERIFY_KEY_FILE'),
      invalidKey(/holds a rsa key/),
    );
  });
});
