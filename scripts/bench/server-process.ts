/**
 * The servers under test, in a process of their own so the load generator does not share their
 * event loop: the real server on a temporary SQLite (with the built console), or on a new database
 * of the PostgreSQL cluster `BENCH_POSTGRES_ADMIN_URL` names (see main.ts), and a bare Fastify
 * route responding with whatever JSON body it is given, on the same machine at the same time. Driven by
 * messages from scripts/bench/main.ts (see `Command`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import Fastify from 'fastify';
import { encodeCursor } from '../../server/services/conversations/page-cursor';
import { configFromEnv } from '../../server/config';
import { readProcStat } from '../../server/processes/proc';
import type { openServer as OpenServer } from '../../server/run-server';
import { SecretBox } from '../../server/secret-box';
import { AGENT_SERVER_SPEC_ID } from '../../server/sandboxes/specs';
import { apiKeyHash } from '../../server/services/team/api-keys-service';
import { builtServerScript } from '../../server/testing/built-server';
import { openDatabase } from '../../server/startup';
import { createDatabase } from '../../server/testing/postgres';
import { sql } from 'kysely';
import { RARE_WORD, WORDS } from './seed-words';

export type Command =
  | { cmd: 'settings' }
  | { cmd: 'sandboxes'; count: number }
  | { cmd: 'conversations'; total: number }
  | { cmd: 'events'; count: number; textBytes?: number }
  | { cmd: 'deep-cursor'; position: number }
  | { cmd: 'bare'; body: unknown }
  | { cmd: 'profile-start' }
  | { cmd: 'profile-stop'; file: string }
  | { cmd: 'cpu' }
  | { cmd: 'close' };

export interface Ready {
  url: string;
  bareUrl: string;
  /** The session key: the owner's. */
  key: string;
  /** API keys of an admin and of a member, whose searches see everyone's conversations and their own. */
  keys: Record<BenchRole, string>;
}

export type BenchRole = 'admin' | 'member';

const runtime = process.argv[2] === 'docker' ? 'docker' : 'process';
/** The floor page's build (scripts/bench/floor-page/), when the browser timings need it. */
const floorDir = process.argv[3];
const SESSION_KEY = 'bench-session-key-0123456789';
const SECRETS_KEY = 'bench-secrets-key';
const distDir = path.resolve(import.meta.dirname, '../../dist');

/** The built console plus the baselines of the browser timings: a static page, and the floor page. */
function consoleCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-dist-'));
  fs.cpSync(distDir, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'static.html'), '<!doctype html><title>Static</title><p id="static">A static page</p>');
  if (floorDir) fs.cpSync(floorDir, dir, { recursive: true });
  return dir;
}

const consoleDir = consoleCopy();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-'));
const postgresAdminUrl = process.env.BENCH_POSTGRES_ADMIN_URL;
const databaseUrl = postgresAdminUrl ? await createDatabase(postgresAdminUrl) : undefined;
// The server as `npm start` runs it (built: `npm run bench` builds it first), on a data dir of its own.
const { openServer } = (await import(builtServerScript('run-server'))) as { openServer: typeof OpenServer };
const server = await openServer(
  configFromEnv({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    CONSOLE_DIR: consoleDir,
    PORT: '0',
    SESSION_API_KEY: SESSION_KEY,
    SECRETS_KEY,
    SANDBOX_RUNTIME: runtime,
    MAX_SANDBOXES: '200',
    MAX_RUNNING_SANDBOXES: '100',
    LOG_LEVEL: 'error',
    PATH: process.env.PATH,
    DOCKER_HOST: process.env.DOCKER_HOST,
  }),
);
const { app } = await server.serve();
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
/** A connection of its own to the server's database, to arrange what the benchmark needs. */
const db = await openDatabase(dataDir, new SecretBox(SECRETS_KEY), databaseUrl);

/** After a bulk insert, PostgreSQL's planner is told what the tables hold now (autovacuum would, a while later). */
async function analyze(): Promise<void> {
  if (databaseUrl) await sql`ANALYZE`.execute(db);
}

/** An admin and a member, each with an API key; the member owns every third conversation seeded. */
const ROLE_KEYS: Record<BenchRole, string> = { admin: `sk-oh-${'a'.repeat(32)}`, member: `sk-oh-${'m'.repeat(32)}` };
const MEMBER_ID = 'bench-member';
for (const role of ['admin', 'member'] as const) {
  const id = role === 'member' ? MEMBER_ID : 'bench-admin';
  const now = new Date().toISOString();
  await db
    .insertInto('users')
    .values({ id, email: `${role}@bench.example`, role, status: 'active', created_at: now })
    .execute();
  const key = ROLE_KEYS[role];
  await db
    .insertInto('api_keys')
    .values({ user_id: id, name: 'bench', prefix: key.slice(0, 10), key_hash: apiKeyHash(key), created_at: now })
    .execute();
}

let bareBody: unknown = {};
const bare = Fastify({ logger: false });
bare.get('/bare', async () => bareBody);
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });

const box = new SecretBox(SECRETS_KEY);
const stand_ins: ChildProcess[] = [];
const aliveServers: http.Server[] = [];

/** A sandbox as the registry knows one: a live process group of its own, an agent server responding on /alive on its port. */
async function standInSandbox(): Promise<void> {
  const child = spawn('sleep', ['3600'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  stand_ins.push(child);
  const alive = http.createServer((_request, response) => response.end('{"status":"ok"}'));
  await new Promise<void>((resolve) => alive.listen(0, '127.0.0.1', resolve));
  aliveServers.push(alive);
  const stat = readProcStat(child.pid!)!;
  const now = new Date().toISOString();
  await db
    .insertInto('sandboxes')
    .values({
      id: randomBytes(16).toString('hex'),
      spec_id: AGENT_SERVER_SPEC_ID,
      port: (alive.address() as AddressInfo).port,
      session_key: box.seal(randomBytes(32).toString('base64url')),
      pid: stat.pid,
      process_start: stat.startTime,
      created_at: now,
      started_at: now,
      exit_detail: null,
      image: null,
    })
    .execute();
}

let conversationsSeeded = 0;
async function seedConversations(total: number): Promise<void> {
  // Sandboxes of old conversations are mostly deleted by now: they show as MISSING.
  const goneSandboxIds = Array.from({ length: 1000 }, () => randomBytes(16).toString('hex'));
  const start = Date.parse('2025-01-01T00:00:00Z');
  const BATCH = 500;
  await db.transaction().execute(async (trx) => {
    for (let from = conversationsSeeded; from < total; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(total, from + BATCH); i++) {
        const words = Array.from({ length: 5 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]);
        const at = new Date(start + i * 60_000).toISOString();
        rows.push({
          id: randomBytes(16).toString('hex'),
          user_id: i % 3 === 2 ? MEMBER_ID : 'default',
          sandbox_id: goneSandboxIds[i % goneSandboxIds.length]!,
          sandbox_created: 0,
          selected_repository: i % 3 === 0 ? 'octo/hello-world' : null,
          selected_branch: i % 3 === 0 ? 'main' : null,
          git_provider: i % 3 === 0 ? 'github' : null,
          title: `${words.join(' ')} #${i}${i % 100 === 0 ? ` ${RARE_WORD}` : ''}`,
          trigger: 'gui',
          pr_number: '[]',
          llm_model: 'openai/gpt-4o',
          metrics: null,
          parent_conversation_id: null,
          skills: '[]',
          archived: 0,
          created_at: at,
          updated_at: at,
          working_dir: '/workspace/project',
        });
      }
      await trx.insertInto('app_conversations').values(rows).execute();
    }
  });
  conversationsSeeded = Math.max(conversationsSeeded, total);
  await analyze();
}

/** A conversation with `count` events (user and agent messages), each of `textBytes` when given (a large history): its id. */
async function seedEvents(count: number, textBytes?: number): Promise<string> {
  await seedConversations(conversationsSeeded + 1);
  const conversation = await db.selectFrom('app_conversations').select('id').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  const start = Date.parse('2025-06-01T00:00:00Z');
  await db.transaction().execute(async (trx) => {
    for (let from = 0; from < count; from += 500) {
      const rows = [];
      for (let i = from; i < Math.min(count, from + 500); i++) {
        const source = i % 2 === 0 ? 'user' : 'agent';
        const timestamp = new Date(start + i * 1000).toISOString();
        const id = randomBytes(16).toString('hex');
        const body = {
          kind: 'MessageEvent',
          id,
          timestamp: timestamp.replace('Z', ''),
          source,
          llm_message: {
            role: source === 'user' ? 'user' : 'assistant',
            content: [{ type: 'text', text: textBytes ? `Message ${i}: ${'x'.repeat(textBytes)}` : `Message ${i}: ${WORDS.join(' ')}` }],
          },
        };
        rows.push({
          user_id: 'default',
          conversation_id: conversation.id,
          event_id: id,
          kind: 'MessageEvent',
          source,
          timestamp,
          body: JSON.stringify(body),
        });
      }
      await trx.insertInto('conversation_events').values(rows).execute();
    }
  });
  await analyze();
  return conversation.id;
}

/** The page id of the page that starts after row `position` in the default order (newest first). */
async function deepCursor(position: number): Promise<string> {
  const row = await db
    .selectFrom('app_conversations')
    .select(['created_at', 'id'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(position)
    .limit(1)
    .executeTakeFirstOrThrow();
  return encodeCursor('CREATED_AT_DESC', { value: row.created_at, id: row.id });
}

async function seedSettings(): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/settings',
    headers: { 'x-session-api-key': SESSION_KEY },
    payload: {
      llm_model: 'openai/gpt-4o',
      llm_api_key: 'sk-bench-0123456789',
      llm_base_url: 'https://llm.example.com/v1',
      agent: 'CodeActAgent',
      language: 'en',
      search_api_key: 'tvly-bench',
    },
  });
  if (response.statusCode !== 200) throw new Error(`settings: ${response.statusCode} ${response.body}`);
}

async function close(): Promise<void> {
  for (const child of stand_ins) child.kill('SIGKILL');
  for (const alive of aliveServers) alive.close();
  await bare.close();
  // Sandboxes the benchmark started are deleted by it; stand-ins are gone with their processes.
  // Closing the app stops the server's watching of sandboxes too, before its database goes.
  await app.close();
  await db.destroy();
  fs.rmSync(consoleDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** CPU profiles of the servers while the benchmark loads them (BENCH_PROFILE). */
const profiler = new Session();

async function handle(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'settings':
      return seedSettings();
    case 'sandboxes':
      for (let i = 0; i < command.count; i++) await standInSandbox();
      return;
    case 'conversations':
      return seedConversations(command.total);
    case 'events':
      return seedEvents(command.count, command.textBytes);
    case 'deep-cursor':
      return deepCursor(command.position);
    case 'bare':
      bareBody = command.body;
      return;
    case 'profile-start':
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
      return;
    case 'profile-stop': {
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      fs.writeFileSync(command.file, JSON.stringify(profile));
      return;
    }
    case 'cpu': {
      // Microseconds of CPU this process (the real server and the bare route) has used.
      const { user, system } = process.cpuUsage();
      return user + system;
    }
    case 'close':
      await close();
      return;
  }
}

process.on('message', (message: { id: number; command: Command }) => {
  handle(message.command).then(
    (result) => {
      process.send!({ id: message.id, result });
      // An exit of its own, so a CPU profile (BENCH_PROFILE) is written.
      if (message.command.cmd === 'close') process.disconnect();
    },
    (error: unknown) => process.send!({ id: message.id, error: error instanceof Error ? error.stack : String(error) }),
  );
});
process.send!({ ready: { url, bareUrl, key: SESSION_KEY, keys: ROLE_KEYS } satisfies Ready });
