import { createServer, request } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { listenPrivately } from './embedded-socket.ts';
import { BackupError } from '../backup-error.ts';

/** The embedded server's socket for backups, next to its database socket. */
export const BACKUP_SOCKET_FILE = 'medora.sock';
// A backup of a clinic's database takes seconds; one that takes longer than this is stuck.
const BACKUP_REQUEST_TIMEOUT_MS = 10 * 60_000;

export interface BackupSocket {
  close(): Promise<void>;
}

/** Serves `POST /backup` on `DATA_DIR/medora.sock` (mode 0600), for `medora backup` in another process. */
export async function serveBackups(
  dataDir: string,
  backup: () => Promise<Buffer>,
  log: (line: string) => void,
): Promise<BackupSocket> {
  const path = join(dataDir, BACKUP_SOCKET_FILE);
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404).end();
      return;
    }
    backup().then(
      (dump) => res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': dump.length }).end(dump),
      (error: Error) => {
        log(`backup: failed for medora backup: ${error.message}`);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(error.message);
      },
    );
  });
  // The caller holds the folder's lock, so a socket file here is a dead server's.
  rmSync(path, { force: true });
  await listenPrivately(server, path);
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Asks the running server in `dataDir` for a backup. */
export function requestBackup(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath: join(dataDir, BACKUP_SOCKET_FILE),
        method: 'POST',
        path: '/backup',
        timeout: BACKUP_REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode === 200) resolve(body);
          else
            reject(
              new BackupError(
                `the server could not make a backup: ${body.toString('utf8') || `status ${res.statusCode}`}`,
              ),
            );
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(
        new BackupError(`the server took over ${BACKUP_REQUEST_TIMEOUT_MS / 60_000} minutes to make a backup`),
      ),
    );
    req.on('error', (error) =>
      reject(
        error instanceof BackupError
          ? error
          : new BackupError(`cannot reach the server for a backup: ${error.message}`),
      ),
    );
    req.end();
  });
}
