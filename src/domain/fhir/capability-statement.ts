import type { CapabilityStatement, CapabilityStatementRestResource } from '@medplum/fhirtypes';
import { includesOf, revIncludesOf } from './includes.ts';
import { RESULT_PARAMS } from './search-request.ts';
import { FHIR_TYPES } from './resource-def.ts';
import { RESOURCES } from './resources.ts';

const resourceCapability = (type: (typeof FHIR_TYPES)[number]): CapabilityStatementRestResource => {
  const def = RESOURCES[type];
  const sorts = [
    '_id',
    ...(def.params.some((p) => p.name === '_lastUpdated') ? ['_lastUpdated'] : []),
    ...(def.sortDate ? [def.sortDate] : []),
  ];
  return {
    type,
    interaction: [{ code: 'read' }, { code: 'search-type' }],
    readHistory: false,
    updateCreate: false,
    searchParam: def.params.map((p) => ({ name: p.name, type: p.type, documentation: p.documentation })),
    ...(includesOf(type).length ? { searchInclude: includesOf(type) } : {}),
    ...(revIncludesOf(type).length ? { searchRevInclude: revIncludesOf(type) } : {}),
    operation: def.operations,
    documentation: `_sort by ${sorts.join(', ')} (prefix - for descending); ${RESULT_PARAMS.join(', ')} shape the result`,
  };
};

/**
 * What the API implements, made from the resource definitions the searches themselves run on, so it cannot
 * drift from them. `date` is when it was asked for: the statement describes the server as it runs.
 */
export function capabilityStatement(ctx: { base: string; clinicName: string }, date: Date): CapabilityStatement {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: date.toISOString(),
    publisher: ctx.clinicName,
    kind: 'instance',
    software: { name: 'Medora' },
    implementation: { description: `${ctx.clinicName}: Medora's read-only FHIR API`, url: ctx.base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only, JSON only (XML is answered 406). Sign in as for the rest of Medora: the session cookie or ' +
          'Authorization: Bearer <token>. Reads carry ETag W/"<meta.versionId>" and answer If-None-Match with 304.',
        security: {
          description:
            "Medora's sessions and bearer tokens, with Medora's permissions: a patient reads their own compartment.",
        },
        resource: FHIR_TYPES.map(resourceCapability),
        operation: [
          {
            name: 'export',
            definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export',
            documentation:
              'Admins only. GET [base]/$export (Bulk Data Access 2.0, system level): 202 with Content-Location, a ' +
              'status URL answering 202 with X-Progress while the job runs, then the manifest of one NDJSON file per ' +
              'type at absolute URLs read with the same token; DELETE on it cancels. Takes _type (comma-separated) ' +
              'and _since; _outputFormat only application/fhir+ndjson.',
          },
        ],
      },
    ],
  };
}
