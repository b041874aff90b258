/** A backup or restore refused for a reason the operator can act on; its own module, so the CLI names it without loading the dump tools. */
export class BackupError extends Error {
  override name = 'BackupError';
}
