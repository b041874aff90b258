/**
 * What a PostgreSQL server reads from a client (protocol 3.0): bytes in as they arrive, whole startup packets and
 * messages out, or a ProtocolError naming what was wrong. No socket and no database: embedded-socket.ts answers
 * the error and closes the client. The limits are PostgreSQL's own where it has one (postmaster.c, postgres.c),
 * and PGlite needs them kept: a Sync longer than PostgreSQL's limit, or a message type it does not know, stops it.
 */

export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;
export const PROTOCOL_3_0 = 196608;

/** PostgreSQL's MAX_STARTUP_PACKET_LENGTH, here counting the length word too. */
export const MAX_STARTUP_PACKET_BYTES = 10_000;
/** PostgreSQL's PQ_SMALL_MESSAGE_LIMIT, for messages that carry no SQL or data: Sync, Flush, Execute … */
export const MAX_SMALL_MESSAGE_BYTES = 10_000;
/**
 * For Query, Parse, Bind, FunctionCall and CopyData (PostgreSQL allows 1 GB). Medora's largest value is a 2 MiB
 * image, 4 MiB as hex; PGlite's memory never shrinks back, and a 64 MiB statement grew it by over 300 MB.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** A client's bytes not yet read as messages: one message of the largest size and the read that ends it. */
export const MAX_BUFFERED_BYTES = MAX_MESSAGE_BYTES + 1024 * 1024;

// The SQLSTATEs a refusal carries.
export const PROTOCOL_VIOLATION = '08P01';
export const FEATURE_NOT_SUPPORTED = '0A000';
export const TOO_MANY_CONNECTIONS = '53300';

// CancelRequest: length, code, process id and a key of 4 bytes (protocol 3.0) up to 256 (3.2).
const MIN_CANCEL_REQUEST_BYTES = 16;
const MAX_CANCEL_REQUEST_BYTES = 12 + 256;
const NEGOTIATION_REQUEST_BYTES = 8;
const REQUEST_MAJOR_VERSION = 1234;

/** What a client sent that a server may not take; the client is answered `sqlState` and closed. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly sqlState: string = PROTOCOL_VIOLATION,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export type StartupPacket =
  | { kind: 'ssl-request' }
  | { kind: 'gssenc-request' }
  | { kind: 'cancel-request' }
  | { kind: 'startup'; minorVersion: number; parameters: Map<string, string> };

/**
 * The frontend messages of protocol 3.0 once started, with the longest each may be (length word included).
 * PasswordMessage is not among them: this server asks for no password, and PGlite stops at one.
 */
const MESSAGE_LIMITS = {
  Q: MAX_MESSAGE_BYTES, // Query
  P: MAX_MESSAGE_BYTES, // Parse
  B: MAX_MESSAGE_BYTES, // Bind
  F: MAX_MESSAGE_BYTES, // FunctionCall
  d: MAX_MESSAGE_BYTES, // CopyData
  D: MAX_SMALL_MESSAGE_BYTES, // Describe
  E: MAX_SMALL_MESSAGE_BYTES, // Execute
  C: MAX_SMALL_MESSAGE_BYTES, // Close
  H: MAX_SMALL_MESSAGE_BYTES, // Flush
  S: MAX_SMALL_MESSAGE_BYTES, // Sync
  c: MAX_SMALL_MESSAGE_BYTES, // CopyDone
  f: MAX_SMALL_MESSAGE_BYTES, // CopyFail
  X: MAX_SMALL_MESSAGE_BYTES, // Terminate
} as const;

export type FrontendType = keyof typeof MESSAGE_LIMITS;

export interface FrontendMessage {
  kind: 'message';
  type: FrontendType;
  /** The message after its type and length. */
  body: Buffer;
}

export function isFrontendType(type: string): type is FrontendType {
  return Object.hasOwn(MESSAGE_LIMITS, type);
}

/**
 * One client's bytes, read as startup packets until the startup packet proper, then as messages. Chunks are kept
 * as they came and joined only once a whole message is there, so a large message costs one copy, not one per read.
 */
export class FrontendReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private started = false;
  private readonly negotiated = new Set<string>();

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > MAX_BUFFERED_BYTES) {
      throw new ProtocolError(
        `${this.size} bytes sent ahead of the answers, more than the ${MAX_BUFFERED_BYTES} a client may`,
      );
    }
  }

  /** The next whole packet or message; undefined until more bytes come; throws ProtocolError. */
  next(): StartupPacket | FrontendMessage | undefined {
    return this.started ? this.nextMessage() : this.nextStartupPacket();
  }

  private nextStartupPacket(): StartupPacket | undefined {
    if (this.size < 4) return undefined;
    const length = this.head(4).readInt32BE(0);
    if (length < 8 || length > MAX_STARTUP_PACKET_BYTES)
      throw new ProtocolError(`invalid length of startup packet: ${length}`);
    if (this.size < length) return undefined;
    const packet = startupPacket(this.take(length));
    if (packet.kind === 'ssl-request' || packet.kind === 'gssenc-request') {
      if (this.negotiated.has(packet.kind)) throw new ProtocolError(`${packet.kind} sent twice`);
      this.negotiated.add(packet.kind);
    }
    if (packet.kind === 'startup') this.started = true;
    return packet;
  }

  private nextMessage(): FrontendMessage | undefined {
    if (this.size < 1) return undefined;
    const type = String.fromCharCode(this.head(1).readUInt8(0));
    if (!isFrontendType(type)) throw new ProtocolError(`invalid frontend message type ${type.charCodeAt(0)}`);
    if (this.size < 5) return undefined;
    const length = this.head(5).readInt32BE(1);
    if (length < 4 || length > MESSAGE_LIMITS[type]) {
      throw new ProtocolError(`invalid length of message "${type}": ${length} (4 to ${MESSAGE_LIMITS[type]})`);
    }
    if (this.size < 1 + length) return undefined;
    return { kind: 'message', type, body: this.take(1 + length).subarray(5) };
  }

  /** The first `n` buffered bytes (at least), as one buffer: joins only as many chunks as that needs. */
  private head(n: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length >= n) return first;
    let count = 0;
    let joined = 0;
    while (joined < n && count < this.chunks.length) joined += this.chunks[count++]?.length ?? 0;
    const merged = Buffer.concat(this.chunks.slice(0, count));
    this.chunks.splice(0, count, merged);
    return merged;
  }

  private take(n: number): Buffer {
    const merged = this.head(n);
    if (merged.length === n) this.chunks.shift();
    else this.chunks[0] = merged.subarray(n);
    this.size -= n;
    return merged.subarray(0, n);
  }
}

function startupPacket(packet: Buffer): StartupPacket {
  const code = packet.readUInt32BE(4);
  switch (code) {
    case SSL_REQUEST_CODE:
      requireLength(packet, 'SSLRequest', NEGOTIATION_REQUEST_BYTES, NEGOTIATION_REQUEST_BYTES);
      return { kind: 'ssl-request' };
    case GSSENC_REQUEST_CODE:
      requireLength(packet, 'GSSENCRequest', NEGOTIATION_REQUEST_BYTES, NEGOTIATION_REQUEST_BYTES);
      return { kind: 'gssenc-request' };
    case CANCEL_REQUEST_CODE:
      requireLength(packet, 'CancelRequest', MIN_CANCEL_REQUEST_BYTES, MAX_CANCEL_REQUEST_BYTES);
      return { kind: 'cancel-request' };
  }
  const major = code >>> 16;
  const minor = code & 0xffff;
  if (major === REQUEST_MAJOR_VERSION) throw new ProtocolError(`unknown request code ${code} in startup packet`);
  if (major !== 3)
    throw new ProtocolError(
      `unsupported frontend protocol ${major}.${minor}: this server speaks 3.0`,
      FEATURE_NOT_SUPPORTED,
    );
  return { kind: 'startup', minorVersion: minor, parameters: startupParameters(packet.subarray(8)) };
}

function requireLength(packet: Buffer, name: string, min: number, max: number): void {
  if (packet.length < min || packet.length > max)
    throw new ProtocolError(`invalid length of ${name}: ${packet.length}`);
}

/** name, value, name, value … each ending in a zero byte, and one more zero byte after the last. */
function startupParameters(body: Buffer): Map<string, string> {
  const parameters = new Map<string, string>();
  let offset = 0;
  for (;;) {
    const name = readCString(body, offset, 'startup packet');
    if (name.text === '') break;
    const value = readCString(body, name.next, 'startup packet');
    parameters.set(name.text, value.text);
    offset = value.next;
  }
  if (offset + 1 !== body.length)
    throw new ProtocolError('invalid startup packet layout: expected terminator as last byte');
  return parameters;
}

/** The zero-terminated UTF-8 string at `start` of a message body, and where what follows it begins. */
export function readCString(body: Buffer, start: number, where: string): { text: string; next: number } {
  const end = body.indexOf(0, start);
  if (end < 0) throw new ProtocolError(`invalid string in ${where}: no terminating zero byte`);
  return { text: body.toString('utf8', start, end), next: end + 1 };
}

/** A message as the protocol frames it, either way: its type, its length (itself included), its body. */
export function encodeMessage(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

export function errorResponse(severity: 'ERROR' | 'FATAL', sqlState: string, text: string): Buffer {
  const field = (code: string, value: string) => Buffer.concat([Buffer.from(code), cstring(value)]);
  return encodeMessage(
    'E',
    field('S', severity),
    field('V', severity),
    field('C', sqlState),
    field('M', text),
    Buffer.from([0]),
  );
}

export function int32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
}

export function cstring(text: string): Buffer {
  return Buffer.from(`${text}\0`, 'utf8');
}
