import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import type { App } from '../../app.ts';
import { apiRoutes } from '../routes.ts';
import { openApiDocument } from './document.ts';

// The route table's handlers only capture `app`; building it reads nothing from it, so no database is needed.
const routes = apiRoutes({} as App);
const document = openApiDocument();
const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    access: operation['x-medora-access'],
  })),
);

describe('the OpenAPI document', () => {
  it('has an operation for every route of src/http/routes.ts, with the access the route has', () => {
    const byKey = new Map(operations.map((operation) => [operation.key, operation]));
    const missing = routes
      .filter((route) => !byKey.has(`${route.method} ${route.path}`))
      .map((route) => `${route.method} ${route.path}`);
    assert.deepEqual(
      missing,
      [],
      `${missing.length} of ${routes.length} routes have no operation in src/http/openapi/paths/`,
    );
    const differing = routes
      .filter((route) => byKey.has(`${route.method} ${route.path}`))
      .filter(
        (route) => JSON.stringify(byKey.get(`${route.method} ${route.path}`)?.access) !== JSON.stringify(route.access),
      )
      .map(
        (route) =>
          `${route.method} ${route.path}: the route says ${JSON.stringify(route.access)}, the document ${JSON.stringify(byKey.get(`${route.method} ${route.path}`)?.access)}`,
      );
    assert.deepEqual(differing, [], 'the access of each operation is its route’s');
  });

  it('has no operation without a route', () => {
    const routeKeys = new Set(routes.map((route) => `${route.method} ${route.path}`));
    assert.deepEqual(
      operations.map((operation) => operation.key).filter((key) => !routeKeys.has(key)),
      [],
    );
  });

  it('names each operation once', () => {
    const ids = Object.values(document.paths).flatMap((byMethod) =>
      Object.values(byMethod).map((operation) => operation.operationId),
    );
    assert.equal(new Set(ids).size, ids.length);
  });
});
