/** The server could not listen where it was told to; the message says where and why, for the operator. */
export class ListenError extends Error {
  constructor(host: string, port: number, cause: NodeJS.ErrnoException) {
    super(`cannot listen on ${host}:${port}: ${REASONS[cause.code ?? ''] ?? cause.message}`, { cause });
    this.name = 'ListenError';
  }
}

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another program (stop it, or set PORT)',
  EACCES: 'permission denied (a port under 1024 needs privileges; set PORT)',
  EADDRNOTAVAIL: 'this machine has no such address (set HOST)',
};
