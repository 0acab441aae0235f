import { rem, Table } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/**
 * Mantine's `Table.ScrollContainer type="native"` with its own classes: the Mantine component
 * imports its custom scroll area (and a positioning library with it) even when the native one
 * is asked for, which made that a large part of every list page's first download.
 */
export function TableScroll({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  return (
    <div className={Table.classes.scrollContainer} style={{ '--table-overflow': 'auto' } as CSSProperties}>
      <div className={Table.classes.scrollContainerInner} style={{ '--table-min-width': rem(minWidth) } as CSSProperties}>
        {children}
      </div>
    </div>
  );
}
