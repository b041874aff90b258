import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import type { App } from '../app.ts';
import type { ReceiverJson } from '../domain/interfaces/interfaces-shapes.ts';
import { HL7_EVENTS } from '../domain/notifications/hl7-events.ts';
import { cliActor } from '../domain/shared/actor.ts';
import { ensure, notFound } from '../domain/shared/errors.ts';
import { MAX_PER_PAGE } from '../domain/shared/pagination.ts';
import { writeLine, type Cli } from './context.ts';
import { chosenFormat, formatOption, printRecord, printRows, type Column } from './format.ts';

const RECEIVER_COLUMNS: Column[] = [
  { key: 'id', header: 'ID' },
  { key: 'name', header: 'Name' },
  { key: 'address', header: 'Host:port' },
  { key: 'events', header: 'Events' },
  { key: 'active', header: 'Active' },
  { key: 'queued', header: 'Queued' },
  { key: 'dead', header: 'Dead' },
  { key: 'last_sent_at', header: 'Last sent' },
];

const receiverRow = (r: ReceiverJson) => ({ ...r, address: `${r.host}:${r.port}`, events: r.events.join(',') });

/** `--events A01,A04`: the API's list; a value it does not take is refused by the use case, naming `events`. */
const eventList = (value: string) => value.split(',').map((e) => e.trim().toUpperCase());

async function receiverById(app: App, id: string): Promise<ReceiverJson | undefined> {
  const page = await app.interfaces.listReceivers({ per_page: MAX_PER_PAGE }, cliActor());
  return page.items.find((r) => String(r.id) === id);
}

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

  const receivers = hl7.command('receivers').description('the systems Medora sends HL7 messages to');
  const events = `events, comma-separated: ${HL7_EVENTS.join(',')}`;
  const printed = (r: ReceiverJson, format: string | undefined) =>
    printRecord(io.stdout, receiverRow(r), RECEIVER_COLUMNS, chosenFormat(format, io.stdout), r);

  receivers
    .command('list')
    .description('list the receivers with their queue depth and dead letters')
    .addOption(formatOption())
    .action(async (opts: { format?: string }) => {
      const app = await getApp();
      const page = await app.interfaces.listReceivers({ per_page: MAX_PER_PAGE }, cliActor());
      printRows(io.stdout, page.items.map(receiverRow), RECEIVER_COLUMNS, chosenFormat(opts.format, io.stdout), {
        json: page.items,
      });
    });

  receivers
    .command('add')
    .description('add a receiver: the changes of its events are queued for it from now on')
    .requiredOption('--name <name>', 'its name, unique; sent as MSH-5')
    .requiredOption('--host <host>', 'where its MLLP listener is')
    .requiredOption('--port <port>', 'its port')
    .requiredOption('--events <list>', events, eventList)
    .addOption(formatOption())
    .action(async (opts: { name: string; host: string; port: string; events: string[]; format?: string }) => {
      const app = await getApp();
      const { format, ...body } = opts;
      printed(await app.interfaces.createReceiver(body, cliActor()), format);
    });

  receivers
    .command('update')
    .argument('<id>', 'the receiver')
    .description('change a receiver: what is not given stays as it is')
    .option('--name <name>', 'its name')
    .option('--host <host>', 'where its MLLP listener is')
    .option('--port <port>', 'its port')
    .option('--events <list>', events, eventList)
    .option('--active', 'send to it again')
    .addOption(formatOption())
    .action(
      async (
        id: string,
        opts: { name?: string; host?: string; port?: string; events?: string[]; active?: boolean; format?: string },
      ) => {
        const app = await getApp();
        const current = ensure(await receiverById(app, id), () => notFound('Receiver'));
        const body = {
          name: opts.name ?? current.name,
          host: opts.host ?? current.host,
          port: opts.port ?? current.port,
          events: opts.events ?? current.events,
          active: opts.active ?? current.active,
        };
        printed(await app.interfaces.updateReceiver(id, body, cliActor()), opts.format);
      },
    );

  receivers
    .command('deactivate')
    .argument('<id>', 'the receiver')
    .description('send it nothing more; what is queued for it is kept')
    .addOption(formatOption())
    .action(async (id: string, opts: { format?: string }) => {
      const app = await getApp();
      printed(await app.interfaces.deactivateReceiver(id, cliActor()), opts.format);
    });

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
