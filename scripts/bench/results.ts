/** One line of the bench table: a figure beside its baseline from the same run, and the goal. */
export interface Row {
  section: string;
  measure: string;
  value: string;
  baseline: string;
  /** value ÷ baseline, as the goal reads it; `null` when the row is a plain figure. */
  ratio: number | null;
  goal: string;
  met: boolean | null;
  /** The numbers behind the row, for bench/results.json. */
  data: Record<string, unknown>;
}

export function printTable(rows: Row[]): void {
  const head = ['section', 'measure', 'value', 'baseline', 'ratio', 'goal', 'met'];
  const cells = rows.map((row) => [
    row.section,
    row.measure,
    row.value,
    row.baseline,
    row.ratio === null ? '' : row.ratio.toFixed(2),
    row.goal,
    row.met === null ? '' : row.met ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}
