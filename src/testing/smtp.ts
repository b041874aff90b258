/** A real SMTP server in the test process: what Medora's mail worker sends arrives here and is parsed back. */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * How the server answers a message: accept it, refuse it with an SMTP reply code (451 try later, 550 never), either
 * after `afterMs` (a slow server) or once `until` settles (as slow as the test wants, whatever the machine's speed),
 * or never answer (a sender that dies meanwhile has not delivered it).
 */
export type Verdict =
  | (({ accept: true } | { accept: false; code: number; message: string }) & {
      afterMs?: number;
      until?: Promise<unknown>;
    })
  | { hold: true };

export interface TestSmtp {
  url: string;
  received: ParsedMail[];
  /** Decides each message's answer, seeing the message; by default every message is accepted. */
  verdict: (attempt: number, mail: ParsedMail) => Verdict;
  /** Messages offered so far, refused ones included. */
  attempts(): number;
  /** Resolves once `count` messages have been accepted, or fails after `ms`. */
  waitFor(count: number, ms?: number): Promise<ParsedMail[]>;
  /** The first accepted message `matches` finds, once it has arrived; fails after `ms`. */
  waitForMessage(matches: (mail: ParsedMail) => boolean, ms?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ParsedMail[] = [];
  let attempts = 0;
  /** Answers a slow verdict still owes. */
  const slow = new Set<NodeJS.Timeout>();
  const state: TestSmtp = {
    url: '',
    received,
    verdict: () => ({ accept: true }),
    attempts: () => attempts,
    waitFor: async (count, ms = 10_000) => {
      const until = Date.now() + ms;
      while (received.length < count) {
        if (Date.now() > until) throw new Error(`expected ${count} messages within ${ms} ms, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received;
    },
    waitForMessage: async (matches, ms = 10_000) => {
      const until = Date.now() + ms;
      for (;;) {
        const found = received.find(matches);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no matching message within ${ms} ms among ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => {
      for (const timer of slow) clearTimeout(timer);
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      attempts++;
      const attempt = attempts;
      simpleParser(stream)
        .then((mail) => {
          const verdict = state.verdict(attempt, mail);
          if ('hold' in verdict) return;
          const answer = () => {
            if (!verdict.accept)
              return callback(Object.assign(new Error(verdict.message), { responseCode: verdict.code }));
            received.push(mail);
            callback();
          };
          if (verdict.until) return void verdict.until.then(answer, answer);
          if (!verdict.afterMs) return answer();
          const timer = setTimeout(() => {
            slow.delete(timer);
            answer();
          }, verdict.afterMs);
          slow.add(timer);
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}
