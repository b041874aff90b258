import { usesAppStylesheet } from './paths.ts';

/**
 * index.html links both stylesheets; only the one the spec's path rule picks applies. The other has
 * media="not all": the browser still fetches it, at low priority and without holding back the first paint, so a
 * later switch has it at hand. Toggling the <link> elements' media keeps the CSP free of inline styles.
 */
export function applyStylesheetFor(path: string): void {
  const wanted = usesAppStylesheet(path) ? 'app' : 'main';
  for (const link of document.querySelectorAll<HTMLLinkElement>('link[data-stylesheet]')) {
    const media = link.dataset.stylesheet === wanted ? 'all' : 'not all';
    if (link.media !== media) link.media = media;
  }
}
