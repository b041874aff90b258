import type { Resource } from '@medplum/fhirtypes';
import type { PatientExport } from './everything-use-case.ts';

/** One file of a Bulk Data manifest's `output`. */
export interface BulkOutput {
  type: string;
  url: string;
  count: number;
}

/** The manifest of a finished export in Bulk Data's shape (FHIR Bulk Data Access 2.0, the status request's answer). */
export interface BulkManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: BulkOutput[];
  error: BulkOutput[];
}

/** A file being written, a line at a time; a promise that waits is how the reader slows to the writer. */
export interface NdjsonFile {
  write(line: string): Promise<void>;
  close(): Promise<void>;
}

/** How long a finished system export's manifest and files are kept, unless EXPORT_RETENTION_HOURS says otherwise. */
export const DEFAULT_EXPORT_RETENTION_HOURS = 24;

export const ndjsonName = (type: string) => `${type}.ndjson`;

/**
 * Writes each type's resources as `<type>.ndjson` through `open`, one JSON line each; a type with none gets no file
 * (Bulk Data lists only files with resources). Answers the manifest, each file's url made by `url` from its name.
 */
export async function writeNdjsonFiles(
  exported: PatientExport,
  open: (name: string) => Promise<NdjsonFile>,
  url: (name: string) => string,
): Promise<BulkManifest> {
  const output: BulkOutput[] = [];
  for (const { type, resources } of exported.files) {
    let file: NdjsonFile | undefined;
    let count = 0;
    for await (const resource of resources()) {
      file ??= await open(ndjsonName(type));
      await file.write(`${JSON.stringify(resource)}\n`);
      count += 1;
    }
    if (file) {
      await file.close();
      output.push({ type, url: url(ndjsonName(type)), count });
    }
  }
  return {
    transactionTime: exported.transactionTime,
    request: exported.request,
    requiresAccessToken: false,
    output,
    error: [],
  };
}

/** Every file's resources one after another, for a single NDJSON stream. */
export async function* allResources(exported: PatientExport): AsyncGenerator<Resource> {
  for (const file of exported.files) yield* file.resources();
}
