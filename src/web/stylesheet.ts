import { usesAppStylesheet } from './paths.ts';

/**
 * index.html links both stylesheets; only the one the spec's path rule picks stays enabled. Toggling the
 * <link> elements keeps the CSP free of inline styles.
 */
export function applyStylesheetFor(path: string): void {
  const wanted = usesAppStylesheet(path) ? 'app' : 'main';
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-stylesheet]')) {
    link.disabled = link.dataset.stylesheet !== wanted;
  }
}
