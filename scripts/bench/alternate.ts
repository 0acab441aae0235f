/**
 * An A/B comparison of two trees (A without a change, B with it): the bench runs in each in turn,
 * A B A B A B, and each row's figures are reported as medians per tree. Alternating puts both
 * under the same share of the machine's changing load, which a run of A and later a run of B
 * would not. Each tree needs node_modules and its build (`npm run build`: the console, the server and the agent server).
 *
 *   BENCH_SECTIONS=2 npx tsx scripts/bench/alternate.ts <tree A> <tree B> [runs, default 3]
 *
 * Runs with a browser section (1, 5, or all) take /tmp/browser.lock one at a time. Each run's
 * results and the summary are written to a temporary directory, printed at the end.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './results';
import { median } from './stats';

const [treeA, treeB, runsArg] = process.argv.slice(2);
if (!treeA || !treeB) {
  console.error('usage: npx tsx scripts/bench/alternate.ts <tree A> <tree B> [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 3);
const trees = { A: path.resolve(treeA), B: path.resolve(treeB) };
const sections = process.env.BENCH_SECTIONS?.split(',');
const browser = !sections || sections.includes('1') || sections.includes('5');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-ab-'));

/** A row's name without the body size it reports, which the change under test may alter. */
const key = (row: Row) => `${row.section} | ${row.measure.replace(/ \(\d+ B\)$/, '')}`;
/** The first number of a row's value: req/s, ms or bytes. */
const figure = (row: Row) => Number(/[\d,.]+/.exec(row.value)?.[0].replaceAll(',', '') ?? NaN);
/** A throughput row's server CPU per request, in µs (see throughput.ts). */
const cpu = (row: Row) => Number(/(\d+) µs CPU/.exec(row.value)?.[1] ?? NaN);

const results: Record<'A' | 'B', Row[][]> = { A: [], B: [] };
const loads: string[] = [];
for (let run = 1; run <= runs; run++) {
  for (const side of ['A', 'B'] as const) {
    const out = path.join(outDir, `${side}-${run}.json`);
    // A tree from before the contract used Lingui's macros has no hook for them, nor needs one.
    const macros = fs.existsSync(path.join(trees[side], 'scripts/lingui-macros.mjs')) ? ['--import', './scripts/lingui-macros.mjs'] : [];
    const command = ['npx', 'tsx', ...macros, 'scripts/bench/main.ts'];
    const load = os.loadavg().map((n) => n.toFixed(2));
    loads.push(`${side}${run}: load ${load.join(' ')}`);
    console.error(`bench ab: ${side} run ${run} of ${runs} in ${trees[side]} (load ${load.join(' ')})`);
    const [file, ...args] = browser ? ['flock', '/tmp/browser.lock', ...command] : command;
    execFileSync(file!, args, { cwd: trees[side], env: { ...process.env, BENCH_OUT: out }, stdio: ['ignore', 'ignore', 'inherit'] });
    results[side].push((JSON.parse(fs.readFileSync(out, 'utf8')) as { rows: Row[] }).rows);
  }
}

const lines = [
  `A: ${trees.A}`,
  `B: ${trees.B}`,
  `${runs} alternating runs each, BENCH_SECTIONS=${sections?.join(',') ?? 'all'}; ${loads.join(', ')}`,
  '',
  '| row | A | B | B/A | ratio A | ratio B | ratios A | ratios B | CPU µs/req A | B | B/A |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];
const fixed = (n: number, digits = 2) => (Number.isNaN(n) ? '' : n.toFixed(digits));
for (const name of new Set(results.B.flat().map(key))) {
  const of = (side: 'A' | 'B') => results[side].map((rows) => rows.find((row) => key(row) === name)).filter((row) => row !== undefined);
  const [a, b] = [of('A'), of('B')];
  const medianOf = (rows: Row[], take: (row: Row) => number) => median(rows.map(take));
  const ratio = (row: Row) => row.ratio ?? NaN;
  const cells = [
    name,
    medianOf(a, figure),
    medianOf(b, figure),
    fixed(medianOf(b, figure) / medianOf(a, figure), 3),
    fixed(medianOf(a, ratio)),
    fixed(medianOf(b, ratio)),
    a.map((row) => fixed(ratio(row))).join(' '),
    b.map((row) => fixed(ratio(row))).join(' '),
    fixed(medianOf(a, cpu), 0),
    fixed(medianOf(b, cpu), 0),
    fixed(medianOf(b, cpu) / medianOf(a, cpu), 3),
  ];
  lines.push(`| ${cells.join(' | ')} |`);
}
fs.writeFileSync(path.join(outDir, 'summary.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
console.log(`\nruns and summary: ${outDir}`);
