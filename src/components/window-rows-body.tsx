import { Table } from '@mantine/core';
import type { ReactNode, RefObject } from 'react';
import type { useWindowRows } from './use-window-rows';

/** An empty row that stands in for rows not rendered. */
const SpacerRow = ({ height }: { height: number }) => <tr aria-hidden="true" style={{ height }} />;

type WindowRowsBodyProps = Pick<ReturnType<typeof useWindowRows>, 'spacers'> & {
  bodyRef: RefObject<HTMLTableSectionElement | null>;
  children: ReactNode;
};

/** The body of a table of which only the rows in view are rendered (`children`, see useWindowRows), between its spacer rows. */
export function WindowRowsBody({ bodyRef, spacers, children }: WindowRowsBodyProps) {
  return (
    <Table.Tbody ref={bodyRef}>
      {spacers.above.map((height, i) => (
        <SpacerRow key={i} height={height} />
      ))}
      {children}
      <SpacerRow height={spacers.below} />
    </Table.Tbody>
  );
}
