import { describe, it } from '../../src/testing/node-test.ts';
import assert from 'node:assert/strict';
import { htmlAssets, pageFiles, type BuildOutputs } from './ui-weight.ts';

const outputs: BuildOutputs = {
  'dist/web/assets/main.js': {
    entryPoint: 'src/web/main.tsx',
    imports: [
      { path: 'dist/web/assets/chunk-react.js', kind: 'import-statement' },
      { path: 'dist/web/assets/landing.js', kind: 'dynamic-import' },
      { path: 'dist/web/assets/shell.js', kind: 'dynamic-import' },
    ],
  },
  'dist/web/assets/chunk-react.js': { imports: [] },
  'dist/web/assets/landing.js': {
    entryPoint: 'src/web/pages/public/landing-page.tsx',
    imports: [
      { path: 'dist/web/assets/chunk-react.js', kind: 'import-statement' },
      { path: 'dist/web/assets/chunk-ui.js', kind: 'import-statement' },
    ],
  },
  'dist/web/assets/chunk-ui.js': { imports: [] },
  'dist/web/assets/shell.js': {
    entryPoint: 'src/web/components/app-shell.tsx',
    imports: [{ path: 'dist/web/assets/chunk-admin.js', kind: 'import-statement' }],
  },
  'dist/web/assets/chunk-admin.js': { imports: [] },
};

describe('pageFiles', () => {
  it('follows static imports from the entry and the page chunk, but not other pages behind dynamic imports', () => {
    const files = pageFiles(
      outputs,
      ['dist/web/assets/main.js', 'dist/web/assets/main.css'],
      ['src/web/pages/public/landing-page.tsx'],
    );
    assert.deepEqual(files, [
      'dist/web/assets/chunk-react.js',
      'dist/web/assets/chunk-ui.js',
      'dist/web/assets/landing.js',
      'dist/web/assets/main.css',
      'dist/web/assets/main.js',
    ]);
  });

  it('says which page module the build no longer has', () => {
    assert.throws(() => pageFiles(outputs, [], ['src/web/pages/gone.tsx']), /no chunk for src\/web\/pages\/gone.tsx/);
  });
});

describe('htmlAssets', () => {
  it('reads the module script and both stylesheets from index.html, not the icon', () => {
    const html = `<link rel="icon" href="/favicon.svg" />
      <link rel="stylesheet" href="/assets/main-styles-A.css" data-stylesheet="main" />
      <link rel="stylesheet" href="/assets/app-styles-B.css" data-stylesheet="app" />
      <script type="module" src="/assets/main-C.js"></script>`;
    assert.deepEqual(htmlAssets(html), [
      'dist/web/assets/main-styles-A.css',
      'dist/web/assets/app-styles-B.css',
      'dist/web/assets/main-C.js',
    ]);
  });
});
