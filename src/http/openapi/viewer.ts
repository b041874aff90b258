import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strongEtag } from '../etag.ts';

/** A file of the viewer as served: its bytes, their type and their tag, made once per process. */
export interface ViewerFile {
  bytes: Buffer;
  contentType: string;
  etag: string;
}

// The page loads no script of its own inline (the Content-Security-Policy has no 'unsafe-inline'): the
// initializer is a file beside swagger-ui's.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Medora API</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/viewer.js"></script>
</body>
</html>
`;

// BaseLayout: the document alone, without the standalone preset's bar for loading another one.
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  withCredentials: true,
});
`;

/** The files of swagger-ui-dist the page loads, by the name it asks for them under /api/docs/. */
const SWAGGER_UI_FILES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
]);

export const VIEWER_FILE_NAMES = ['viewer.js', ...SWAGGER_UI_FILES.keys()];

const made = new Map<string, ViewerFile>();

const viewerFile = (bytes: Buffer, contentType: string): ViewerFile => ({
  bytes,
  contentType,
  etag: strongEtag(bytes),
});

/** The viewer's page, served at /api/docs. */
export function viewerPage(): ViewerFile {
  return cached('', () => viewerFile(Buffer.from(PAGE), 'text/html; charset=utf-8'));
}

/** A file the page loads, or undefined for any other name. */
export function viewerAsset(name: string): ViewerFile | undefined {
  if (name === 'viewer.js')
    return cached(name, () => viewerFile(Buffer.from(INITIALIZER), 'text/javascript; charset=utf-8'));
  const contentType = SWAGGER_UI_FILES.get(name);
  // Read from the installed package, never from a CDN; only the names above, so no path reaches another file.
  return contentType === undefined
    ? undefined
    : cached(name, () => viewerFile(readFileSync(join(swaggerUiDir(), name)), contentType));
}

function cached(name: string, make: () => ViewerFile): ViewerFile {
  let file = made.get(name);
  if (!file) {
    file = make();
    made.set(name, file);
  }
  return file;
}

const swaggerUiDir = () => dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));
