import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { writeLine, type Cli } from './context.ts';

/**
 * A file of HL7 messages as its messages: MLLP frames when it holds them (a capture), else each message from its
 * MSH line to the next; batch headers and trailers (FHS, BHS, BTS, FTS) are no messages.
 */
export function messagesOf(text: string): string[] {
  const framed = text.includes('\u000b') ? text.split('\u000b').map((m) => m.split('\u001c')[0] ?? '') : [text];
  return framed.flatMap((chunk) => {
    const messages: string[][] = [];
    for (const line of chunk.split(/\r\n|\r|\n/)) {
      if (/^(FHS|BHS|BTS|FTS)/.test(line) || line.trim() === '') continue;
      if (line.startsWith('MSH')) messages.push([line]);
      else messages.at(-1)?.push(line);
    }
    return messages.map((lines) => lines.join('\r'));
  });
}

export function register(program: Command, { getApp, io }: Cli): void {
  const hl7 = program.command('hl7').description('HL7 v2 interfaces');

  hl7
    .command('import')
    .argument('<file>', 'a file of HL7 v2 messages (ORU^R01 results), one after another or MLLP-framed')
    .description(
      'take the messages of a file as the MLLP listener takes them: each stored once by its MSH-10, results matched to their orders, a message that cannot be taken kept for review',
    )
    .action(async (file: string) => {
      const app = await getApp();
      const counts = { AA: 0, AE: 0, AR: 0 };
      for (const message of messagesOf(await readFile(file, 'utf8'))) {
        const received = await app.hl7Inbound.receiveMessage(message);
        counts[received.ackCode]++;
        const again = received.duplicate ? ' (received before)' : '';
        const why = received.error ? `\t${received.error}` : '';
        writeLine(io.stdout, `${received.controlId ?? '(no MSH-10)'}\t${received.ackCode}${again}${why}`);
      }
      const total = counts.AA + counts.AE + counts.AR;
      writeLine(
        io.stdout,
        `${total} message${total === 1 ? '' : 's'}: ${counts.AA} accepted, ${counts.AE + counts.AR} refused (kept for review)`,
      );
    });
}
