import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import type { Row } from './results';
import type { BenchServers } from './servers';
import type { BenchRole } from './server-process';
import { median, timings } from './stats';

import { RARE_WORD } from './seed-words';

export interface Load {
  requests: number;
  p50: number;
  p99: number;
  /** Microseconds of the servers' CPU per request (the process's, which also runs the bare route and background work). */
  cpu: number;
}

const cpuUsed = async (servers: BenchServers) => (await servers.send({ cmd: 'cpu' })) as number;

/** What section 2 loads: a name, the path and query (of a conversation with the seeded events), and the goal of its ratio. */
/** What section 2 measures: a name, the request, its goal, and who asks (the owner when no role). */
export function throughputRequests(conversationId: string): [name: string, pathAndQuery: string, goal: number, role?: BenchRole][] {
  const search = '/api/v1/app-conversations/search?limit=100';
  return [
    ['GET /api/settings', '/api/settings', 0.5],
    ['sandbox search, 50 sandboxes', '/api/v1/sandboxes/search?limit=100', 0.5],
    ['conversation search, 100,000', search, 0.3],
    [`conversation search, title__contains=${RARE_WORD} (1 %)`, `${search}&title__contains=${RARE_WORD}`, 0.3],
    ['conversation search, 100,000, as an admin', search, 0.3, 'admin'],
    ['conversation search, a member’s 33,333 of 100,000', search, 0.3, 'member'],
    [`conversation search, title__contains=${RARE_WORD}, as a member`, `${search}&title__contains=${RARE_WORD}`, 0.3, 'member'],
    ['event search, 10,000 events', `/api/v1/events/search?conversation_id__eq=${conversationId}&limit=100`, 0.3],
  ];
}

/** Requests per second, latency and server CPU of `url` under `connections` for `seconds`. */
export async function load(servers: BenchServers, url: string, seconds: number, connections: number, key = servers.key): Promise<Load> {
  const cpuBefore = await cpuUsed(servers);
  const result = await autocannon({ url, connections, duration: seconds, headers: { 'x-session-api-key': key } });
  const cpu = (await cpuUsed(servers)) - cpuBefore;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} responses not 2xx, ${result.errors} errors`);
  return { requests: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpu: cpu / result.requests.total };
}

/**
 * BENCH_PROFILE=<dir>: CPU profiles of the real server and of the bare route under this load, to
 * see where the time goes (not counted); `<name>.json` beside them has how many requests each
 * responded to, to put the profiles' times per request.
 */
async function profile(servers: BenchServers, name: string, real: string, bare: string): Promise<void> {
  const dir = process.env.BENCH_PROFILE!;
  fs.mkdirSync(dir, { recursive: true });
  const base = path.resolve(dir, name.replace(/[^\w]+/g, '-'));
  const requests: Record<string, number> = {};
  for (const [side, url] of [
    ['real', real],
    ['bare', bare],
  ] as const) {
    await servers.send({ cmd: 'profile-start' });
    requests[side] = (await load(servers, url, SECONDS, CONNECTIONS)).requests * SECONDS;
    await servers.send({ cmd: 'profile-stop', file: `${base}${side === 'bare' ? '-bare' : ''}.cpuprofile` });
  }
  fs.writeFileSync(`${base}.json`, JSON.stringify(requests));
}

export const SECONDS = 3;
export const CONNECTIONS = 20;

/**
 * Requests per second of `pathAndQuery` on the real server beside the bare route responding with
 * the same body: medians of three alternating 3 s runs with 20 connections, after a 1 s warm-up each.
 */
export async function throughput(servers: BenchServers, name: string, pathAndQuery: string, goal: number, role?: BenchRole): Promise<Row> {
  const key = role ? servers.keys[role] : servers.key;
  const sample = await servers.request('GET', pathAndQuery, undefined, key);
  if (sample.status !== 200) throw new Error(`${pathAndQuery}: ${sample.status} ${sample.body.slice(0, 300)}`);
  await servers.send({ cmd: 'bare', body: JSON.parse(sample.body) });
  const real = `${servers.url}${pathAndQuery}`;
  const bare = `${servers.bareUrl}/bare`;
  await load(servers, real, 1, CONNECTIONS, key);
  await load(servers, bare, 1, CONNECTIONS);
  const runs: { real: Load; bare: Load }[] = [];
  for (let i = 0; i < 3; i++)
    runs.push({ real: await load(servers, real, SECONDS, CONNECTIONS, key), bare: await load(servers, bare, SECONDS, CONNECTIONS) });
  if (process.env.BENCH_PROFILE) await profile(servers, name, real, bare);
  const of = (side: 'real' | 'bare', figure: keyof Load) => median(runs.map((run) => run[side][figure]));
  const ratio = of('real', 'requests') / of('bare', 'requests');
  const describe = (side: 'real' | 'bare') =>
    `${Math.round(of(side, 'requests'))} req/s, p50 ${of(side, 'p50')} ms, p99 ${of(side, 'p99')} ms, ${Math.round(of(side, 'cpu'))} µs CPU/req`;
  return {
    section: '2 throughput',
    measure: `${name} (${sample.body.length} B)`,
    value: describe('real'),
    baseline: describe('bare'),
    ratio,
    goal: `≥ ${goal}`,
    met: ratio >= goal,
    data: { path: pathAndQuery, role: role ?? 'owner', bodyBytes: sample.body.length, runs },
  };
}

/** The median time of one request for `pathAndQuery`, asked 200 times in a row (after 20 to warm up). */
export async function latencyP50(servers: BenchServers, pathAndQuery: string): Promise<number> {
  const ask = async () => {
    const response = await servers.get(pathAndQuery);
    if (response.status !== 200) throw new Error(`${pathAndQuery}: ${response.status} ${response.body.slice(0, 300)}`);
  };
  await timings(20, ask);
  return median(await timings(200, ask));
}
