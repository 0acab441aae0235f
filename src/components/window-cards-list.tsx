import type { ReactNode, RefObject } from 'react';

/**
 * A list of cards of which only those in view are rendered (`children`, see useWindowRows),
 * between empty items standing in for the others, as WindowRowsBody does for a table.
 */
export function WindowCardsList({
  bodyRef,
  spacers,
  label,
  children,
}: {
  bodyRef: RefObject<HTMLUListElement | null>;
  spacers: { above: number[]; below: number };
  label: string;
  children: ReactNode;
}) {
  return (
    <ul ref={bodyRef} aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {/* One spacer above is enough here: cards have no stripes to keep in step. */}
      <li aria-hidden="true" style={{ height: spacers.above.reduce((sum, height) => sum + height, 0) }} />
      {children}
      <li aria-hidden="true" style={{ height: spacers.below }} />
    </ul>
  );
}
