import { validateResource, type ValidatorOptions } from '@medplum/core';
import type { OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';

/** @medplum/core's errors for `resource`, whether it returns them or throws them as an OperationOutcome. */
export function validationErrors(resource: Resource, options?: ValidatorOptions): string[] {
  const errorsOf = (issues: OperationOutcomeIssue[]) =>
    issues
      .filter((issue) => issue.severity === 'error')
      .map((issue) => `${issue.expression?.join(', ')}: ${issue.details?.text}`);
  try {
    return errorsOf(validateResource(resource, options));
  } catch (error) {
    const outcome = (error as { outcome?: { issue?: OperationOutcomeIssue[] } }).outcome;
    if (!outcome) throw error;
    return errorsOf(outcome.issue ?? []);
  }
}
