import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rolesTable, systemTasksTable } from './policy-table';

/** A Markdown table's rows as trimmed cells (the separator row left out), however its columns are padded. */
const rowsOf = (table: string) =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s-|]*$/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );

/** The table in `text` whose header is `header`'s (the rows that follow it up to the first line that is no row). */
function tableIn(text: string, header: string[]): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => JSON.stringify(rowsOf(line)[0] ?? []) === JSON.stringify(header));
  if (start < 0) return [];
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
  return rowsOf(lines.slice(start, end < 0 ? undefined : end).join('\n'));
}

describe('the policy in docs/teams.md', () => {
  const docs = fs.readFileSync('docs/teams.md', 'utf8');

  it.each([
    ['role × resource × action', rolesTable()],
    ['the server’s own tasks', systemTasksTable()],
  ])('shows %s as the policy has it', (_what, table) => {
    const rows = rowsOf(table);
    expect(tableIn(docs, rows[0]!)).toEqual(rows);
  });
});
