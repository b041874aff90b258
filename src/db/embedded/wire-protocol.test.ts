import { describe, it } from '../../testing/node-test.ts';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CANCEL_REQUEST_CODE,
  cstring,
  encodeMessage,
  FEATURE_NOT_SUPPORTED,
  FrontendReader,
  GSSENC_REQUEST_CODE,
  int32,
  isFrontendType,
  MAX_BUFFERED_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_SMALL_MESSAGE_BYTES,
  MAX_STARTUP_PACKET_BYTES,
  PROTOCOL_3_0,
  PROTOCOL_VIOLATION,
  ProtocolError,
  readCString,
  SSL_REQUEST_CODE,
  type FrontendMessage,
  type StartupPacket,
} from './wire-protocol.ts';

const packet = (length: number, code: number, ...rest: Buffer[]) =>
  Buffer.concat([int32(length), int32(code), ...rest]);
const startup = (parameters: Record<string, string> = { user: 'postgres' }) => {
  const body = Buffer.concat([
    ...Object.entries(parameters).flatMap(([name, value]) => [cstring(name), cstring(value)]),
    Buffer.from([0]),
  ]);
  return packet(8 + body.length, PROTOCOL_3_0, body);
};
/** A message header with any length word, true or not. */
const header = (type: string, length: number) => Buffer.concat([Buffer.from(type, 'latin1'), int32(length)]);
const STARTED = startup();

type Read = StartupPacket | FrontendMessage;

/** Everything the reader makes of `chunks`, fed one after the other. */
function readAll(chunks: Buffer[], reader = new FrontendReader()): Read[] {
  const read: Read[] = [];
  for (const chunk of chunks) {
    reader.push(chunk);
    for (let next = reader.next(); next; next = reader.next()) read.push(next);
  }
  return read;
}

/** The error the reader refuses `chunks` with. */
function refusal(...chunks: Buffer[]): ProtocolError {
  try {
    readAll(chunks);
  } catch (error) {
    assert.ok(error instanceof ProtocolError, `expected a ProtocolError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the bytes to be refused');
}

const messagesOf = (read: Read[]) =>
  read.flatMap((item) => (item.kind === 'message' ? [[item.type, item.body.toString('latin1')]] : []));
const bytewise = (bytes: Buffer) => [...bytes].map((byte) => Buffer.from([byte]));

describe('the wire protocol reader', () => {
  describe('before the startup packet', () => {
    it('reads a startup packet and its parameters, also one byte at a time', () => {
      for (const chunks of [
        [startup({ user: 'alice', database: 'medora' })],
        bytewise(startup({ user: 'alice', database: 'medora' })),
      ]) {
        const [read] = readAll(chunks);
        assert.deepEqual(read, {
          kind: 'startup',
          minorVersion: 0,
          parameters: new Map([
            ['user', 'alice'],
            ['database', 'medora'],
          ]),
        });
      }
    });

    it('reads SSLRequest and GSSENCRequest once each before the startup packet, and a CancelRequest', () => {
      const read = readAll([packet(8, SSL_REQUEST_CODE), packet(8, GSSENC_REQUEST_CODE), startup()]);
      assert.deepEqual(
        read.map((item) => item.kind),
        ['ssl-request', 'gssenc-request', 'startup'],
      );
      assert.deepEqual(readAll([packet(16, CANCEL_REQUEST_CODE, int32(1), int32(2))]), [{ kind: 'cancel-request' }]);
    });

    it('refuses a startup packet of length 0 with the SSLRequest code at once', () => {
      const error = refusal(packet(0, SSL_REQUEST_CODE));
      assert.equal(error.sqlState, PROTOCOL_VIOLATION);
      assert.match(error.message, /invalid length of startup packet: 0/);
      // The length word alone is enough to refuse it.
      assert.throws(() => readAll([int32(0)]), ProtocolError);
    });

    it('refuses startup lengths below 8 and above its limit, negative ones too', () => {
      for (const length of [-2147483648, -1, 0, 1, 4, 7, MAX_STARTUP_PACKET_BYTES + 1, 2147483647]) {
        assert.equal(refusal(int32(length)).sqlState, PROTOCOL_VIOLATION, `length ${length}`);
      }
    });

    it('refuses an SSLRequest, GSSENCRequest or CancelRequest of the wrong length, and an SSLRequest sent twice', () => {
      assert.throws(() => readAll([packet(12, SSL_REQUEST_CODE, int32(0))]), ProtocolError);
      assert.throws(() => readAll([packet(9, GSSENC_REQUEST_CODE, Buffer.from([0]))]), ProtocolError);
      assert.throws(() => readAll([packet(8, CANCEL_REQUEST_CODE)]), ProtocolError);
      assert.throws(() => readAll([packet(8, SSL_REQUEST_CODE), packet(8, SSL_REQUEST_CODE)]), /sent twice/);
    });

    it('refuses unknown request codes, and other protocol versions as not supported', () => {
      assert.equal(refusal(packet(8, (1234 << 16) | 5681)).sqlState, PROTOCOL_VIOLATION);
      const version2 = refusal(packet(9, 2 << 16, Buffer.from([0])));
      assert.equal(version2.sqlState, FEATURE_NOT_SUPPORTED);
      assert.match(version2.message, /unsupported frontend protocol 2\.0/);
      assert.equal(refusal(packet(8, 0)).sqlState, FEATURE_NOT_SUPPORTED);
    });

    it('refuses a startup packet whose parameters are not name, value … and a final zero byte', () => {
      for (const body of ['', 'user', 'user\0', 'user\0alice\0', 'user\0\0', 'user\0alice\0\0junk']) {
        assert.throws(
          () => readAll([packet(8 + body.length, PROTOCOL_3_0, Buffer.from(body))]),
          ProtocolError,
          JSON.stringify(body),
        );
      }
    });
  });

  describe('once started', () => {
    it('reads messages whole, across reads and several in one read', () => {
      const bytes = Buffer.concat([
        STARTED,
        encodeMessage('Q', cstring('select 1')),
        encodeMessage('P', cstring('s1'), cstring('select $1'), Buffer.from([0, 0])),
        encodeMessage('S'),
      ]);
      const expected = [
        ['Q', 'select 1\0'],
        ['P', 's1\0select $1\0\0\0'],
        ['S', ''],
      ];
      assert.deepEqual(messagesOf(readAll([bytes])), expected);
      assert.deepEqual(messagesOf(readAll(bytewise(bytes))), expected);
    });

    it('refuses a Query with length -1, and every length below 4', () => {
      for (const length of [-1, -2147483648, 0, 1, 2, 3]) {
        const error = refusal(STARTED, header('Q', length));
        assert.equal(error.sqlState, PROTOCOL_VIOLATION);
        assert.match(error.message, new RegExp(`invalid length of message "Q": ${length}`));
      }
    });

    it('refuses a message longer than its type may be, as soon as its length is read', () => {
      assert.throws(() => readAll([STARTED, header('Q', MAX_MESSAGE_BYTES + 1)]), ProtocolError);
      for (const type of ['S', 'H', 'E', 'D', 'C', 'c', 'f', 'X']) {
        assert.throws(() => readAll([STARTED, header(type, MAX_SMALL_MESSAGE_BYTES + 1)]), ProtocolError, type);
      }
      assert.equal(
        messagesOf(readAll([STARTED, header('S', MAX_SMALL_MESSAGE_BYTES), Buffer.alloc(MAX_SMALL_MESSAGE_BYTES - 4)]))
          .length,
        1,
      );
    });

    it('reads a message of the largest size', () => {
      const sql = Buffer.alloc(MAX_MESSAGE_BYTES - 4, 'x');
      const [read] = messagesOf(
        readAll([STARTED, header('Q', MAX_MESSAGE_BYTES), sql.subarray(0, 1000), sql.subarray(1000)]),
      );
      assert.equal(read?.[1]?.length, MAX_MESSAGE_BYTES - 4);
    });

    it('refuses every message type a frontend does not send, at its first byte', () => {
      const known = [...'QPBFdDECHScfX'];
      for (let byte = 0; byte < 256; byte++) {
        const type = String.fromCharCode(byte);
        assert.equal(isFrontendType(type), known.includes(type), type);
        if (known.includes(type)) continue;
        const error = refusal(STARTED, Buffer.from([byte]));
        assert.equal(error.message, `invalid frontend message type ${byte}`);
      }
    });

    it('refuses a stream of zero bytes', () => {
      assert.equal(refusal(STARTED, Buffer.alloc(65536)).message, 'invalid frontend message type 0');
    });

    it('refuses a client that sends more than it may buffer', () => {
      const reader = new FrontendReader();
      readAll([STARTED, header('Q', MAX_MESSAGE_BYTES)], reader);
      reader.push(Buffer.alloc(MAX_MESSAGE_BYTES - 5));
      assert.equal(reader.next(), undefined);
      assert.throws(() => reader.push(Buffer.alloc(MAX_BUFFERED_BYTES)), /ahead of the answers/);
    });

    it('reads a string up to its zero byte, and refuses one without', () => {
      assert.deepEqual(readCString(Buffer.from('ab\0cd\0'), 3, 'Parse'), { text: 'cd', next: 6 });
      assert.throws(() => readCString(Buffer.from('abc'), 0, 'Parse'), /invalid string in Parse/);
    });
  });

  describe('given any bytes', () => {
    const bytesInChunks = fc
      .tuple(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc
            .array(
              fc.oneof(
                fc.integer().map(int32),
                fc.constantFrom(STARTED, packet(8, SSL_REQUEST_CODE), encodeMessage('Q', cstring('select 1'))),
              ),
              { maxLength: 8 },
            )
            .map((parts) => new Uint8Array(Buffer.concat(parts))),
        ),
        fc.array(fc.nat({ max: 200 }), { maxLength: 6 }),
      )
      .map(([bytes, cuts]) => {
        const points = [...new Set(cuts.filter((cut) => cut < bytes.length))].sort((a, b) => a - b);
        return [0, ...points].map((from, i) => Buffer.from(bytes.subarray(from, points[i] ?? bytes.length)));
      });

    it('either reads whole packets from them or refuses them with a ProtocolError, never anything else and never looping', () => {
      fc.assert(
        fc.property(bytesInChunks, (chunks) => {
          const reader = new FrontendReader();
          let taken = 0;
          try {
            for (const chunk of chunks) {
              reader.push(chunk);
              for (let next = reader.next(); next; next = reader.next()) {
                taken += next.kind === 'message' ? 5 + next.body.length : 0;
                assert.ok(taken <= chunks.reduce((sum, c) => sum + c.length, 0));
              }
            }
          } catch (error) {
            if (!(error instanceof ProtocolError)) throw error;
          }
        }),
        { numRuns: 2000 },
      );
    });

    it('reads the same messages however the bytes are split', () => {
      const message = fc
        .tuple(fc.constantFrom('Q', 'P', 'B', 'S', 'd'), fc.uint8Array({ maxLength: 50 }))
        .map(([type, body]) => encodeMessage(type, Buffer.from(body)));
      fc.assert(
        fc.property(fc.array(message, { maxLength: 6 }), fc.nat({ max: 40 }), (messages, cut) => {
          const bytes = Buffer.concat([STARTED, ...messages]);
          const whole = messagesOf(readAll([bytes]));
          assert.deepEqual(messagesOf(readAll([bytes.subarray(0, cut), bytes.subarray(cut)])), whole);
          assert.equal(whole.length, messages.length);
        }),
        { numRuns: 500 },
      );
    });
  });
});
