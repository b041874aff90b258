import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * What gives way, in turn, when the table is wider than its box: room for cut text, then wrapped headers and
 * cells, then cut text narrower still, then priority 3 columns, then priority 2.
 */
const HIDDEN_IN_TURN = ['text', 'wrap', 'tight', '3', '2'];

/**
 * A screen narrower than this (app.css's `@container data-table` for phones) holds only narrower tables, each row
 * a card: nothing is cut or hidden there, so nothing needs measuring, and the page is not laid out inside React's
 * commit, which on a phone would lengthen the task that draws the rows.
 */
const CARDS_SCREEN = '(max-width: calc(42rem - 0.02px))';

/**
 * Narrows the table's cut texts, wraps its headers and short cells, then hides its lowest-priority columns
 * (`priority-3`, then `priority-2` cells), until it fits `box` without scrolling sideways, whatever the rows hold; and makes each cut `.cell-text` focusable, so its whole text can be
 * read from the keyboard too. Runs before paint, again when the rows change or the box is resized. Returns the
 * headers of the columns it hid, for the table to name them.
 */
export function useFittedColumns(box: RefObject<HTMLElement | null>, rows: unknown): string[] {
  // What the first fitting answers when it hides nothing, so that it draws the table no second time.
  const [hidden, setHidden] = useState('[]');
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    // The width fitted to, read only once the page is laid out anyway (no width is known before the first fitting).
    let width: number | undefined;
    const fit = () => {
      delete element.dataset.hide;
      if (window.matchMedia(CARDS_SCREEN).matches) {
        for (const text of element.querySelectorAll('.cell-text[tabindex]')) text.removeAttribute('tabindex');
        setHidden('[]');
        return;
      }
      width = element.clientWidth;
      for (const level of HIDDEN_IN_TURN) {
        if (element.scrollWidth <= element.clientWidth) break;
        element.dataset.hide = level;
      }
      // Every width and style is read before any tabindex is written: a write between reads would lay the page
      // out again for each cell.
      const texts = [...element.querySelectorAll<HTMLElement>('.cell-text')];
      const cut = texts.map((text) => text.scrollWidth > text.clientWidth);
      // A phone's cards show every column, their headers read out only.
      const headers = [...element.querySelectorAll<HTMLElement>('thead th')];
      const gone = headers.filter((th) => getComputedStyle(th).display === 'none').map((th) => th.textContent ?? '');
      texts.forEach((text, i) => {
        if (cut[i]) text.tabIndex = 0;
        else text.removeAttribute('tabindex');
      });
      setHidden(JSON.stringify(gone));
    };
    fit();
    // Only a new width can change what fits; heights change with every page of rows.
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      fit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [box, rows]);
  return JSON.parse(hidden) as string[];
}
