import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../data-dir';
import { SecretBox } from '../secret-box';
import { type ServerProcess, startServerProcess } from '../testing/server-process';
import { report, size } from './soak';

/**
 * Crash safety: 1,000 writes at once (new secrets, whole-settings saves and conversation
 * renames), the server SIGKILLed when about half have their response. After each trial the database
 * passes SQLite's integrity check, every acknowledged secret and rename is there, and the
 * settings document is exactly one of the saves sent — never a mix of two. A save that was not
 * acknowledged may only be there if it was under way when the server died (committed, its response
 * lost with the connection).
 */

const TRIALS = size(2, 10);
const WRITES = 1000;

const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Save `i` sets every field from `i`, so a document mixing two saves shows. */
/** Write `i` is of one of three kinds. */
const kind = (i: number) => (['secret', 'settings', 'rename'] as const)[i % 3]!;
/** The conversation write `i` renames: one of its own, so which rename won is never in doubt. */
const conversationId = (i: number) => i.toString(16).padStart(32, '0');

/** Conversations for the renames, put straight into the database the server has open. */
function seedConversations(dataDir: string): void {
  const db = new SQLite(path.join(dataDir, DATABASE_FILE));
  db.pragma('busy_timeout = 5000');
  const insert = db.prepare(
    `INSERT INTO app_conversations (id, user_id, sandbox_id, sandbox_created, title, pr_number, skills, archived, created_at, updated_at)
     VALUES (?, 'default', 'gone', 0, ?, '[]', '[]', 0, ?, ?)`,
  );
  const now = new Date().toISOString();
  db.transaction(() => {
    for (let i = 0; i < WRITES; i++) if (kind(i) === 'rename') insert.run(conversationId(i), `seeded-${i}`, now, now);
  })();
  db.close();
}

const save = (i: number) => ({
  llm_model: `model-${i}`,
  agent: `agent-${i}`,
  max_iterations: i + 1,
  email: `u${i}@example.com`,
  llm_api_key: `key-${i}`,
});

type Outcome = 'acknowledged' | 'refused' | 'lost';

function send(agent: http.Agent, url: string, key: string, method: string, route: string, body: unknown): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      `${url}${route}`,
      {
        method,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), 'x-session-api-key': key },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode === 200 || response.statusCode === 201 ? 'acknowledged' : 'refused'));
        response.on('error', () => resolve('lost'));
      },
    );
    request.on('error', () => resolve('lost'));
    request.end(payload);
  });
}

async function trial(index: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-crash-'));
  dirs.push(dataDir);
  const server = await startServerProcess({ dataDir });
  servers.push(server);
  seedConversations(dataDir);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const outcomes = new Map<number, Outcome>();
  let responded = 0;
  let killed: Promise<void> | undefined;
  const writes = Array.from({ length: WRITES }, async (_, i) => {
    const write = {
      secret: () => send(agent, server.url, server.key, 'POST', '/api/secrets', { name: `SECRET_${i}`, value: `value-${i}` }),
      settings: () => send(agent, server.url, server.key, 'POST', '/api/settings', save(i)),
      rename: () =>
        send(agent, server.url, server.key, 'PATCH', `/api/v1/app-conversations/${conversationId(i)}`, { title: `renamed-${i}` }),
    }[kind(i)];
    const outcome = await write();
    outcomes.set(i, outcome);
    if (outcome !== 'lost' && ++responded >= WRITES / 2) killed ??= server.kill();
  });
  await Promise.all(writes);
  await killed;
  agent.destroy();

  const count = (what: Outcome) => [...outcomes.values()].filter((o) => o === what).length;
  expect(count('refused')).toBe(0);
  const db = new SQLite(path.join(dataDir, DATABASE_FILE));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const names = new Set((db.prepare('SELECT name FROM custom_secrets').all() as { name: string }[]).map((row) => row.name));
    const lostSecrets = [...outcomes].filter(([i, o]) => kind(i) === 'secret' && o === 'acknowledged' && !names.has(`SECRET_${i}`));
    expect(lostSecrets).toEqual([]);
    const titles = new Map(
      (db.prepare('SELECT id, title FROM app_conversations').all() as { id: string; title: string }[]).map((r) => [r.id, r.title]),
    );
    const lostRenames = [...outcomes].filter(
      ([i, o]) => kind(i) === 'rename' && o === 'acknowledged' && titles.get(conversationId(i)) !== `renamed-${i}`,
    );
    expect(lostRenames).toEqual([]);
    const strangeTitles = [...outcomes].filter(
      ([i]) => kind(i) === 'rename' && ![`seeded-${i}`, `renamed-${i}`].includes(titles.get(conversationId(i)) ?? ''),
    );
    expect(strangeTitles).toEqual([]);

    const row = db.prepare('SELECT document FROM user_settings').get() as { document: string } | undefined;
    const acknowledgedSaves = [...outcomes].filter(([i, o]) => kind(i) === 'settings' && o === 'acknowledged').map(([i]) => i);
    let committedWithoutResponse = false;
    if (row) {
      const document = JSON.parse(row.document) as Record<string, unknown>;
      const i = Number(/^model-(\d+)$/.exec(String(document.llm_model))?.[1]);
      const box = new SecretBox(fs.readFileSync(path.join(dataDir, 'secrets.key'), 'utf8').trim());
      const stored: Record<string, unknown> = { ...document, llm_api_key: box.open(String(document.llm_api_key)) };
      expect(Object.fromEntries(Object.keys(save(i)).map((field) => [field, stored[field]]))).toEqual(save(i));
      committedWithoutResponse = outcomes.get(i) !== 'acknowledged';
      if (committedWithoutResponse) expect(outcomes.get(i)).toBe('lost'); // under way when the server died
    } else {
      expect(acknowledgedSaves).toEqual([]);
    }
    return { acknowledged: count('acknowledged'), lost: count('lost'), committedWithoutResponse, trial: index };
  } finally {
    db.close();
  }
}

describe('crash safety', () => {
  it(
    `${TRIALS} trials of ${WRITES} writes at once, SIGKILL half-way: no acknowledged write lost, no torn settings`,
    async () => {
      const results = [];
      for (let i = 0; i < TRIALS; i++) results.push(await trial(i));
      report('crash-safety', {
        trials: TRIALS,
        writes: WRITES,
        acknowledged: results.reduce((sum, r) => sum + r.acknowledged, 0),
        lostInFlight: results.reduce((sum, r) => sum + r.lost, 0),
        settingsCommittedWithoutResponse: results.filter((r) => r.committedWithoutResponse).length,
      });
    },
    size(60_000, 300_000),
  );
});
