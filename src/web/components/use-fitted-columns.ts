import { useLayoutEffect, type RefObject } from 'react';

/** What gives way, in turn, when the table is wider than its box: priority 3 columns, priority 2, then room for cut text. */
const HIDDEN_IN_TURN = ['3', '2', 'text'];

/**
 * Hides the table's lowest-priority columns (`priority-3`, then `priority-2` cells), then narrows its cut texts,
 * until it fits `box` without scrolling sideways, whatever the rows hold; and makes each cut `.cell-text` focusable, so its whole text can be
 * read from the keyboard too. Runs before paint, again when the rows change or the box is resized.
 */
export function useFittedColumns(box: RefObject<HTMLElement | null>, rows: unknown): void {
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    let width = element.clientWidth;
    const fit = () => {
      delete element.dataset.hide;
      for (const level of HIDDEN_IN_TURN) {
        if (element.scrollWidth <= element.clientWidth) break;
        element.dataset.hide = level;
      }
      for (const text of element.querySelectorAll<HTMLElement>('.cell-text')) {
        if (text.scrollWidth > text.clientWidth) text.tabIndex = 0;
        else text.removeAttribute('tabindex');
      }
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
}
