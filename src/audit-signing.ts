import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { DomainError } from './domain/shared/errors.ts';
import type { AuditKeys, CheckpointKey, CheckpointSigner } from './domain/audit/checkpoint.ts';

/** The key's name in checkpoints: the start of a SHA-256 of its public key (SubjectPublicKeyInfo, DER). */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

const SIGNATURE_BYTES = 64;

/** Ed25519 verification by node's own crypto. */
export function ed25519Key(publicKey: KeyObject): CheckpointKey {
  return {
    keyId: keyIdOf(publicKey),
    verifies: (text, signature) => {
      const bytes = Buffer.from(signature, 'base64');
      if (bytes.length !== SIGNATURE_BYTES) return false;
      try {
        return verify(null, Buffer.from(text, 'utf8'), publicKey, bytes);
      } catch {
        return false;
      }
    },
  };
}

/** Ed25519 signing (pure EdDSA: no digest is named, node hashes as RFC 8032 says). */
export function ed25519Signer(privateKey: KeyObject): CheckpointSigner {
  return {
    ...ed25519Key(createPublicKey(privateKey)),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64'),
  };
}

const invalidKey = (message: string) => new DomainError('invalid', 'audit_key_invalid', message);

/** The signer in `pem` (PKCS8), or an error naming `source`. */
export function signerFromPem(pem: string, source: string): CheckpointSigner {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw invalidKey(`${source} must hold a private key (PEM, PKCS8) as \`medora audit keygen\` writes`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw invalidKey(`${source} holds a ${key.asymmetricKeyType} key; audit checkpoints are signed with Ed25519`);
  return ed25519Signer(key);
}

const PUBLIC_PEM = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/** Every public key in `text` (several after a key was replaced), or an error naming `source`. */
export function keysFromPem(text: string, source: string): CheckpointKey[] {
  const blocks = text.match(PUBLIC_PEM) ?? [];
  if (blocks.length === 0)
    throw invalidKey(`${source} must hold one or more public keys (PEM), as \`medora audit keygen\` prints`);
  return blocks.map((block) => {
    let key: KeyObject;
    try {
      key = createPublicKey(block);
    } catch {
      throw invalidKey(`${source} holds a public key that cannot be read`);
    }
    if (key.asymmetricKeyType !== 'ed25519')
      throw invalidKey(`${source} holds a ${key.asymmetricKeyType} key; audit checkpoints are signed with Ed25519`);
    return ed25519Key(key);
  });
}

async function readKeyFile(path: string, variable: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw invalidKey(`${variable} (${path}) cannot be read: ${(error as Error).message}`);
  }
}

/**
 * The keys named by AUDIT_SIGNING_KEY_FILE and AUDIT_VERIFY_KEY_FILE. Only keys from these files are trusted, never
 * one the database offers: whoever could rewrite the trail could write a key there too.
 */
export async function loadAuditKeys(files: { signingKeyFile?: string; verifyKeyFile?: string }): Promise<AuditKeys> {
  const signer = files.signingKeyFile
    ? signerFromPem(await readKeyFile(files.signingKeyFile, 'AUDIT_SIGNING_KEY_FILE'), 'AUDIT_SIGNING_KEY_FILE')
    : null;
  const published = files.verifyKeyFile
    ? keysFromPem(await readKeyFile(files.verifyKeyFile, 'AUDIT_VERIFY_KEY_FILE'), 'AUDIT_VERIFY_KEY_FILE')
    : [];
  const trusted = [...(signer ? [signer] : []), ...published].filter(
    (key, index, all) => all.findIndex((other) => other.keyId === key.keyId) === index,
  );
  return { signer, trusted };
}

/**
 * A new signing key written to `path` (owner-only, PKCS8 PEM; never over an existing file, whose checkpoints could
 * then no longer be checked), and its public half to hand to auditors.
 */
export async function writeNewSigningKey(path: string): Promise<{ keyId: string; publicPem: string }> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('ed25519');
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await writeFile(path, privatePem, { flag: 'wx', mode: 0o600 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST')
      throw new DomainError('conflict', 'key_exists', `${path} exists already: a key is never overwritten`);
    throw new DomainError('invalid', 'invalid', `${path} cannot be written: ${error.message}`);
  });
  return { keyId: keyIdOf(publicKey), publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
