import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { ErrorKind } from '../shared/errors.ts';

const ISSUE_CODE: Record<ErrorKind, OperationOutcomeIssue['code']> = {
  malformed: 'structure',
  invalid: 'invalid',
  unauthenticated: 'login',
  forbidden: 'forbidden',
  not_found: 'not-found',
  conflict: 'conflict',
  too_many: 'throttled',
  too_large: 'too-costly',
  unavailable: 'transient',
};

export function operationOutcome(issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

/** An error as FHIR answers it; `kind` undefined is the server's own failure. */
export const errorOutcome = (kind: ErrorKind | undefined, message: string): OperationOutcome =>
  operationOutcome([{ severity: 'error', code: kind ? ISSUE_CODE[kind] : 'exception', diagnostics: message }]);

/** The search parameters a searchset ignored, each a warning. */
export const ignoredOutcome = (ignored: string[]): OperationOutcome =>
  operationOutcome(ignored.map((why) => ({ severity: 'warning', code: 'not-supported', diagnostics: why })));
