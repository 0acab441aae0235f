import { Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface UsageColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** A figure: right-aligned, so the digits line up. */
  figure?: boolean;
  minWidth?: number;
}

/** A section of the Usage page: a heading and a table of figures, one row each, or what to say when there are none. */
export function UsageTable<Row>({
  heading,
  label,
  minWidth,
  columns,
  rows,
  rowKey,
  empty,
}: {
  heading: ReactNode;
  label: string;
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  columns: UsageColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  empty: string;
}) {
  const align = (column: UsageColumn<Row>) => (column.figure ? 'right' : undefined);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {heading}
      </Title>
      <Table.ScrollContainer minWidth={minWidth} type="native">
        <Table striped aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.header} ta={align(column)}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Text c="dimmed">{empty}</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.header} ta={align(column)} miw={column.minWidth}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
