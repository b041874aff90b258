/**
 * The MLLP listener (HL7_LISTEN_PORT): @medplum/hl7's server frames and parses; each message is received through
 * `receive` (stored before it is acknowledged) and answered with its acknowledgement. A connection's messages are
 * taken one after another, so their acknowledgements go back in the order they came.
 */
import { Hl7Message } from '@medplum/core';
import { type Hl7Connection, Hl7Server } from '@medplum/hl7';
import type { AddressInfo, Socket } from 'node:net';
import type { Received } from '../domain/interfaces/inbound-use-cases.ts';

export interface Hl7Listener {
  port: number;
  /** Stops listening, waits (at most `graceMs`) for the messages under way, then closes every connection. */
  stop(graceMs?: number): Promise<void>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function startHl7Listener(
  receive: (text: string) => Promise<Received>,
  port: number,
  log: (line: string) => void,
  { listenWithinMs = 10_000 } = {},
): Promise<Hl7Listener> {
  const sockets = new Set<Socket>();
  const inFlight = new Set<Promise<void>>();
  const server = new Hl7Server((connection: Hl7Connection) => {
    sockets.add(connection.socket);
    connection.socket.once('close', () => sockets.delete(connection.socket));
    let turn = Promise.resolve();
    connection.addEventListener('error', (event) => log(`hl7: ${errorText(event.error)}`));
    connection.addEventListener('message', (event) => {
      const text = event.message.toString();
      turn = turn.then(async () => {
        try {
          const received = await receive(text);
          if (!connection.isClosed()) connection.send(Hl7Message.parse(received.ack));
          log(
            `hl7: received ${received.controlId ?? '(no MSH-10)'}: ${received.ackCode}${received.duplicate ? ' (again)' : ''}`,
          );
        } catch (error) {
          // Not stored, so not acknowledged: the sender sends it again.
          log(`hl7: a message could not be stored, left unacknowledged: ${errorText(error)}`);
        }
      });
      const done = turn;
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    });
  });
  server.start(port);
  const net = server.server;
  if (!net) throw new Error('The HL7 listener did not start');
  await new Promise<void>((resolve, reject) => {
    if (net.listening) return resolve();
    const timer = setTimeout(() => {
      net.close();
      reject(new Error(`HL7_LISTEN_PORT ${port}: could not listen within ${listenWithinMs} ms (is the port in use?)`));
    }, listenWithinMs);
    net.once('listening', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    port: (net.address() as AddressInfo).port,
    stop: async (graceMs = 5000) => {
      const closed = server.stop().catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
