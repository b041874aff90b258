import type { Operations } from './operation.ts';
import type { Schema } from '../../domain/shared/wire-schema.ts';

/** One routes module's part of the document: its tag, its own named shapes and its operations. */
export interface ModulePaths {
  tag: string;
  description: string;
  schemas?: Record<string, Schema>;
  operations: Operations;
}
