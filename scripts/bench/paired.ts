/**
 * Section 2 (throughput) as an A/B within one run: the servers of two trees, seeded alike, are
 * loaded in turns, A B A B…, a few seconds each, and each request's figures are reported as
 * medians per tree. Turns of seconds put both under the same share of a shared machine's load,
 * which whole runs minutes apart (scripts/bench/alternate.ts) do not when that load is heavy.
 * Each tree needs node_modules and its build (`npm run build`: the console, the server and the agent server).
 *
 *   npx tsx scripts/bench/paired.ts <tree A> <tree B> [turns per tree, default 6]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchServers, startServers } from './servers';
import { median } from './stats';
import { CONNECTIONS, load, type Load, SECONDS, throughputRequests } from './throughput';

const [treeA, treeB, turnsArg] = process.argv.slice(2);
if (!treeA || !treeB) {
  console.error('usage: npx tsx scripts/bench/paired.ts <tree A> <tree B> [turns per tree]');
  process.exit(2);
}
const turns = Number(turnsArg ?? 6);
const trees = { A: path.resolve(treeA), B: path.resolve(treeB) };

/** Each tree's servers, started by that tree's own bench code, seeded as `npm run bench` seeds them: the conversation with events. */
async function seeded(tree: string): Promise<{ servers: BenchServers; conversationId: string }> {
  const { startServers: start } = (await import(path.join(tree, 'scripts/bench/servers.ts'))) as { startServers: typeof startServers };
  const servers = await start('process');
  await servers.send({ cmd: 'settings' });
  await servers.send({ cmd: 'sandboxes', count: 50 });
  await servers.send({ cmd: 'conversations', total: 100_000 });
  return { servers, conversationId: (await servers.send({ cmd: 'events', count: 10_000 })) as string };
}

console.error('bench paired: seeding both trees…');
const sides = { A: await seeded(trees.A), B: await seeded(trees.B) };
const loads = [
  `load at start ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
];
const lines = [
  `A: ${trees.A}`,
  `B: ${trees.B}`,
  '',
  '| request | A req/s | B req/s | B/A (median of turns) | A CPU µs/req | B CPU µs/req | B/A CPU |',
  '|---|---|---|---|---|---|---|',
];
const results: Record<string, { A: Load[]; B: Load[] }> = {};
try {
  const requests = (side: 'A' | 'B') => throughputRequests(sides[side].conversationId);
  for (const [index, [name, , , role]] of requests('A').entries()) {
    console.error(`bench paired: ${name}…`);
    const url = (side: 'A' | 'B') => `${sides[side].servers.url}${requests(side)[index]![1]}`;
    const key = (side: 'A' | 'B') => (role ? sides[side].servers.keys[role] : sides[side].servers.key);
    for (const side of ['A', 'B'] as const) await load(sides[side].servers, url(side), 1, CONNECTIONS, key(side));
    const runs: { A: Load[]; B: Load[] } = { A: [], B: [] };
    for (let turn = 0; turn < turns; turn++)
      for (const side of turn % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const))
        runs[side].push(await load(sides[side].servers, url(side), SECONDS, CONNECTIONS, key(side)));
    results[name] = runs;
    const of = (side: 'A' | 'B', figure: keyof Load) => median(runs[side].map((run) => run[figure]));
    const perTurn = median(runs.B.map((run, turn) => run.requests / runs.A[turn]!.requests));
    const cells = [
      name,
      Math.round(of('A', 'requests')),
      Math.round(of('B', 'requests')),
      perTurn.toFixed(3),
      Math.round(of('A', 'cpu')),
      Math.round(of('B', 'cpu')),
      (of('B', 'cpu') / of('A', 'cpu')).toFixed(3),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
} finally {
  await Promise.all([sides.A.servers.close(), sides.B.servers.close()]);
}
loads.push(
  `at end ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
lines.splice(2, 0, `${turns} turns of ${SECONDS} s each, ${CONNECTIONS} connections; ${loads.join(', ')}`);
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-paired-'));
fs.writeFileSync(path.join(out, 'results.json'), JSON.stringify({ trees, turns, results }, null, 2));
console.log(lines.join('\n'));
console.log(`\nturns: ${out}/results.json`);
