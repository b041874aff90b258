import { sharedSchemas } from './components.ts';
import { errorResponses, operation, type Operation } from './operation.ts';
import type { ModulePaths } from './module-paths.ts';
import { componentName, type Schema } from '../../domain/shared/wire-schema.ts';
import { platformPaths } from './paths/platform.ts';
import { accountsPaths } from './paths/accounts.ts';
import { reportsPaths } from './paths/reports.ts';
import { patientsPaths } from './paths/patients.ts';
import { cataloguePaths } from './paths/catalogue.ts';
import { schedulingPaths } from './paths/scheduling.ts';
import { timeOffPaths } from './paths/time-off.ts';
import { waitlistPaths } from './paths/waitlist.ts';
import { recordsPaths } from './paths/records.ts';
import { carePaths } from './paths/care.ts';
import { labPaths } from './paths/lab.ts';
import { vitalsPaths } from './paths/vitals.ts';
import { interfacesPaths } from './paths/interfaces.ts';
import { medicinePaths } from './paths/medicines.ts';
import { billingPaths } from './paths/billing.ts';
import { inpatientPaths } from './paths/inpatient.ts';
import { notificationsPaths } from './paths/notifications.ts';
import { auditPaths } from './paths/audit.ts';
import { apiDocsPaths } from './paths/api-docs.ts';

const MODULES: ModulePaths[] = [
  platformPaths,
  accountsPaths,
  reportsPaths,
  patientsPaths,
  cataloguePaths,
  schedulingPaths,
  timeOffPaths,
  waitlistPaths,
  recordsPaths,
  carePaths,
  labPaths,
  vitalsPaths,
  interfacesPaths,
  medicinePaths,
  billingPaths,
  inpatientPaths,
  notificationsPaths,
  auditPaths,
  apiDocsPaths,
];

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, Operation>;
    securitySchemes: Record<string, Operation>;
  };
  [field: string]: unknown;
}

/** The API's wire contract, OpenAPI 3.1: built from src/http/openapi/paths/, served at /api/openapi.json. */
export function openApiDocument(modules: ModulePaths[] = MODULES): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, Schema> = { ...sharedSchemas };
  for (const module of modules) {
    Object.assign(schemas, module.schemas);
    for (const [key, spec] of Object.entries(module.operations)) {
      const [method = '', path = ''] = key.split(' ');
      const item = { operationId: operationId(method, path), ...operation(method, path, module.tag, spec) };
      paths[path] = { ...paths[path], [method.toLowerCase()]: item };
    }
  }
  // `ref(shape)` points at the name its shape was given, so that is the name it must be listed under.
  const misnamed = Object.entries(schemas).filter(([name, schema]) => (componentName(schema) ?? name) !== name);
  if (misnamed.length > 0)
    throw new Error(`listed under another name than their component's: ${misnamed.map(([name]) => name).join(', ')}`);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Medora API',
      version: '1',
      description:
        'Clinic and hospital management. JSON in and out (snake_case); see docs/api.md for the conventions every route shares.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/' }],
    tags: modules.map(({ tag, description }) => ({ name: tag, description })),
    paths,
    components: {
      schemas,
      responses: errorResponses(referencedStatuses(paths)),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The token a sign-in answers with' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'medora_session',
          description: "The browser's HttpOnly session cookie",
        },
      },
    },
  };
}

/** `GET /api/doctors/{id}/schedule` → `getDoctorsIdSchedule`: unique because method and path are. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split(/[/{}.\-_]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
}

/** The error statuses some operation answers with a shared error answer (`#/components/responses/Error404`). */
function referencedStatuses(paths: OpenApiDocument['paths']): Set<string> {
  const refs = Object.values(paths).flatMap((byMethod) =>
    Object.values(byMethod).flatMap((operation) =>
      Object.values(operation.responses as Record<string, { $ref?: string }>),
    ),
  );
  return new Set(refs.flatMap(({ $ref }) => ($ref?.match(/\/Error(\d+)$/) ?? []).slice(1)));
}
