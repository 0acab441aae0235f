/**
 * `npm run bench`: the performance figures in one table, each beside a baseline measured in the
 * same run on the same machine (it is shared and noisy, so only ratios mean anything), written to
 * bench/results.json too (see docs/performance.md). Needs a production build (`npm run bench` makes one).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bytesOnTheWire, consoleTimings, launchChromium } from './browser';
import { buildFloorPage } from './floor-page/build-floor-page';
import { dockerLifecycle, processLifecycle } from './lifecycle';
import { printTable, type Row } from './results';
import { startServers } from './servers';
import { latencyP50, throughput, throughputRequests } from './throughput';
import { demoSeeding } from './demo-seeding';
import { replayFlood } from './replay-flood';
import { signInFlood } from './sign-in-flood';
import { createLogger } from '../../server/logger';
import { checkEngine, dockerFromEnv } from '../../server/sandboxes/docker/engine';
import { ensureDefaultImage } from '../../server/sandboxes/docker/sandbox-image';
import { startPostgresCluster } from '../../server/testing/postgres';

/** BENCH_SECTIONS=2,3 runs only those sections (while working on them); the table needs all. */
const only = process.env.BENCH_SECTIONS?.split(',');
const runs = (section: number) => !only || only.includes(String(section));
const rows: Row[] = [];
const step = (what: string) => console.error(`bench: ${what}…`);
const began = Date.now();

// BENCH_DATABASE=postgres: each server on a new database of a throwaway PostgreSQL cluster.
const postgres = process.env.BENCH_DATABASE === 'postgres' ? await startPostgresCluster() : undefined;
if (postgres) {
  process.env.BENCH_POSTGRES_ADMIN_URL = postgres.adminUrl;
  process.on('exit', () => postgres.stop());
}
const database = postgres ? 'PostgreSQL' : 'SQLite';

// Built here, not in the server's process: that one runs only what `npm start` runs.
const floorDir = runs(5) ? await buildFloorPage() : undefined;
const servers = await startServers('process', floorDir);
try {
  step('50 sandboxes, settings');
  await servers.send({ cmd: 'settings' });
  await servers.send({ cmd: 'sandboxes', count: 50 });

  // 3: conversation search as the table grows.
  const search = '/api/v1/app-conversations/search?limit=100';
  const scaling: Record<number, { first: number; deep: number }> = {};
  for (const size of [1_000, 10_000, 100_000]) {
    step(`${size} conversations`);
    await servers.send({ cmd: 'conversations', total: size });
    if (!runs(3)) continue;
    const pageId = (await servers.send({ cmd: 'deep-cursor', position: Math.floor(size * 0.9) })) as string;
    scaling[size] = { first: await latencyP50(servers, search), deep: await latencyP50(servers, `${search}&page_id=${pageId}`) };
  }
  for (const page of runs(3) ? (['first', 'deep'] as const) : []) {
    const growth = scaling[100_000]![page] / scaling[1_000]![page];
    rows.push({
      section: '3 scaling',
      measure: `conversation search, ${page === 'first' ? 'first page' : 'page at row 90 %'}: p50 at 1k / 10k / 100k`,
      value: `${scaling[1_000]![page].toFixed(2)} / ${scaling[10_000]![page].toFixed(2)} / ${scaling[100_000]![page].toFixed(2)} ms`,
      baseline: '1k rows',
      ratio: growth,
      goal: '≤ 1.5',
      met: growth <= 1.5,
      data: Object.fromEntries(Object.entries(scaling).map(([size, figures]) => [size, figures[page]])),
    });
  }

  step('events');
  const conversationId = (await servers.send({ cmd: 'events', count: 10_000 })) as string;

  // 2: throughput beside a bare route.
  if (runs(2)) {
    step('throughput');
    for (const [name, pathAndQuery, goal, role] of throughputRequests(conversationId))
      rows.push(await throughput(servers, name, pathAndQuery, goal, role));
    step('a flood of sign-ins');
    rows.push(await signInFlood(servers));
    step('replays of a large history');
    rows.push(await replayFlood(servers));
  }

  // 1 and 5: the console in Chromium.
  if (runs(1) || runs(5)) {
    step('Chromium');
    const browser = await launchChromium();
    try {
      if (runs(1)) rows.push(...(await bytesOnTheWire(browser, servers, conversationId)));
      if (runs(5)) rows.push(...(await consoleTimings(browser, servers)));
    } finally {
      await browser.close();
    }
  }
} finally {
  await servers.close();
  if (floorDir) fs.rmSync(floorDir, { recursive: true, force: true });
}

// 4: sandbox lifecycle, on servers of their own (no stand-in sandboxes around).
if (runs(4)) {
  step('process sandboxes');
  const processServers = await startServers('process');
  try {
    rows.push(...(await processLifecycle(processServers)));
  } finally {
    await processServers.close();
  }
  step('the demo');
  rows.push(await demoSeeding());
}
const engine = dockerFromEnv(process.env.DOCKER_HOST);
const engineResponds = await checkEngine(engine).then(
  () => true,
  () => false,
);
if (runs(4) && engineResponds) {
  step('docker sandboxes');
  const image = await ensureDefaultImage(engine, createLogger(false));
  const dockerServers = await startServers('docker');
  try {
    rows.push(...(await dockerLifecycle(dockerServers, engine, image)));
  } finally {
    await dockerServers.close();
  }
} else if (runs(4)) {
  console.error('bench: no Docker engine responds; the docker lifecycle rows are left out');
}

rows.sort((a, b) => a.section.localeCompare(b.section)); // stable: each section keeps its order
printTable(rows);
const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  database,
};
console.log(
  `\n${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${database}; ${Math.round((Date.now() - began) / 1000)} s`,
);
// BENCH_OUT: another file (scripts/bench/alternate.ts gives each run its own).
const out = path.resolve(process.env.BENCH_OUT ?? path.join(import.meta.dirname, '../../bench/results.json'));
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), machine, rows }, null, 2)}\n`);
