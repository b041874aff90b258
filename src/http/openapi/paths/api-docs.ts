import type { ModulePaths } from '../module-paths.ts';
import { oneOfValues, string } from '../schema.ts';
import { VIEWER_FILE_NAMES } from '../viewer.ts';

const revalidated = { ETag: string() };

// The document's outline only: describing OpenAPI itself here would be a second copy of its own schema.
const openApiObject = {
  type: 'object',
  properties: { openapi: string({ pattern: '^3\\.1\\.' }), info: { type: 'object' }, paths: { type: 'object' } },
  required: ['openapi', 'info', 'paths'],
};

/** The operations of src/http/routes/api-docs.ts. */
export const apiDocsPaths: ModulePaths = {
  tag: 'API description',
  description:
    'This document, and swagger-ui rendering it for people (self-hosted, no CDN). Public, revalidated by ETag.',
  operations: {
    'GET /api/openapi.json': {
      summary: 'The OpenAPI 3.1 document',
      description: 'The wire contract of every route: its access, parameters, body and every answer, errors included.',
      access: 'public',
      headers: { 'If-None-Match': string() },
      answers: {
        200: { content: { 'application/json': openApiObject }, headers: revalidated },
        304: null,
      },
    },
    'GET /api/docs': {
      summary: 'The API reference for people',
      description: 'swagger-ui, served from the installed swagger-ui-dist package, reading `/api/openapi.json`.',
      access: 'public',
      headers: { 'If-None-Match': string() },
      answers: { 200: { content: { 'text/html': string() }, headers: revalidated }, 304: null },
    },
    'GET /api/docs/{file}': {
      summary: 'A file of the API reference page',
      access: 'public',
      params: { file: oneOfValues(VIEWER_FILE_NAMES) },
      headers: { 'If-None-Match': string() },
      answers: {
        200: {
          content: {
            'text/javascript': string(),
            'text/css': string(),
            'image/png': string({ contentMediaType: 'image/png' }),
          },
          headers: revalidated,
        },
        304: null,
      },
    },
  },
};
