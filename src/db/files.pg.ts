import type { ImageType } from '../domain/shared/files.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';

export interface StoredFile {
  contentType: ImageType;
  bytes: Uint8Array;
}

/** Images live in the database so every server instance serves the same ones. */
export function fileStore(db: Queryable) {
  return {
    async save(contentType: ImageType, bytes: Uint8Array): Promise<number> {
      const rows = await db.query<{ id: number }>(
        'insert into files (content_type, bytes) values ($1, $2) returning id',
        [contentType, Buffer.from(bytes)],
      );
      return onlyRow(rows).id;
    },
    async find(id: number): Promise<StoredFile | undefined> {
      const [row] = await db.query<{ content_type: ImageType; bytes: Uint8Array }>(
        'select content_type, bytes from files where id = $1',
        [id],
      );
      return row ? { contentType: row.content_type, bytes: row.bytes } : undefined;
    },
  };
}
