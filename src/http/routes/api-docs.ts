import { notFound } from '../../domain/shared/errors.ts';
import { strongEtag } from '../etag.ts';
import { openApiDocument } from '../openapi/document.ts';
import { viewerAsset, viewerPage, type ViewerFile } from '../openapi/viewer.ts';
import { route as r, type Answer, type Route } from '../router.ts';

/** The API described: its OpenAPI document, and swagger-ui rendering it for people. */
export function apiDocsRoutes(): Route[] {
  let document: ViewerFile | undefined;
  // Built on first ask: a server that is never asked for it pays nothing.
  const documentFile = (): ViewerFile => (document ??= jsonFile(Buffer.from(JSON.stringify(openApiDocument()))));
  return [
    r('GET', '/api/openapi.json', 'public', async () => served(documentFile())),
    r('GET', '/api/docs', 'public', async () => served(viewerPage())),
    r('GET', '/api/docs/{file}', 'public', async ({ params }) => {
      const file = viewerAsset(params.file);
      if (!file) throw notFound('File');
      return served(file);
    }),
  ];
}

/** Revalidated on every use (no-cache), so a new release is seen at once and an unchanged file costs a 304. */
const served = ({ bytes, contentType, etag }: ViewerFile): Answer => ({
  body: bytes,
  headers: { 'content-type': contentType, 'cache-control': 'no-cache', etag },
});

const jsonFile = (bytes: Buffer): ViewerFile => ({ bytes, contentType: 'application/json', etag: strongEtag(bytes) });
