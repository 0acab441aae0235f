import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';

/**
 * A long table in the page's own scroll: only the rows in view (and a few either side) are in the
 * page, each measured as it renders. The table keeps its place in the document with spacer rows
 * above and below (`spacers`). As focus moves through the rows the browser scrolls it into view,
 * which renders the rows that follow before Tab reaches them.
 */
export function useWindowRows<E extends HTMLElement = HTMLTableSectionElement>(
  count: number,
  options: { estimateSize: number; getKey: (index: number) => string },
) {
  const bodyRef = useRef<E>(null);
  // Where the rows start in the document: what is above them scrolls by first.
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    const place = () => setScrollMargin(Math.round(body.getBoundingClientRect().top + window.scrollY));
    place();
    // What is above the table can grow or shrink (an alert, a wrapped header): the page does too.
    const observer = new ResizeObserver(place);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => options.estimateSize,
    getItemKey: options.getKey,
    overscan: 8,
    scrollMargin,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0];
  const last = rows.at(-1);
  const above = first ? first.start - scrollMargin : 0;
  const below = last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0;
  return {
    bodyRef,
    rows,
    measureRow: virtualizer.measureElement,
    /**
     * Heights of the empty rows above and below the rendered ones. Above there are one or two, so
     * that every row keeps the place among its siblings it would have with all rows rendered
     * (`nth-of-type`: striped tables keep their stripes while scrolling).
     */
    spacers: { above: (first?.index ?? 0) % 2 === 0 ? [above, 0] : [above], below },
  };
}
