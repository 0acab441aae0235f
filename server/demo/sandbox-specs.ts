import fs from 'node:fs';
import path from 'node:path';
import type { DeclaredSandboxSpec } from '../../src/contract/sandboxes';
import { AGENT_SERVER_SCRIPT } from '../sandboxes/specs';

/*
 * The demo's sandbox specs (SANDBOX_SPECS_FILE), besides the built-in agent server: two more
 * agent server images, as a team has them, and three whose command shows what sandboxes do when
 * things go wrong: one that waits for a GPU (STARTING), a database that cannot initialise
 * (ERROR) and a one-off job that ended (MISSING).
 */

export const SPEC = {
  frontend: 'node-22-frontend',
  data: 'python-3.12-data',
  gpu: 'gpu-training',
  postgres: 'postgres-15',
  nightly: 'nightly-e2e',
} as const;

const agentServer = [process.execPath, AGENT_SERVER_SCRIPT];

const WAITS_FOR_A_GPU = `echo "Requesting a node from pool gpu-a100 (4 GPUs, 0 free)"
attempt=1
while true; do
  sleep 20
  echo "No GPU node free yet (attempt $attempt); the queue has 3 jobs ahead of this one"
  attempt=$((attempt + 1))
done`;

const CANNOT_INITIALISE = `echo "The files belonging to this database system will be owned by user \\"postgres\\"."
echo "The database cluster will be initialized with locale \\"C.UTF-8\\"."
echo "creating directory $PGDATA ... ok"
mkdir -p "$PGDATA"
echo "creating subdirectories ... "
echo "initdb: error: could not create directory \\"$PGDATA/pg_wal\\": No space left on device" >&2
echo "initdb: removing contents of data directory \\"$PGDATA\\"" >&2
rm -rf "$PGDATA"
exit 1`;

const ENDS_ON_ITS_OWN = `echo "Running the nightly end-to-end suite against $BASE_URL"
for suite in checkout search account admin; do
  echo "  $suite: passed"
done
sleep 1
echo "412 passed, 3 skipped (6m 12s)"`;

export const DEMO_SPECS: DeclaredSandboxSpec[] = [
  {
    id: SPEC.frontend,
    command: agentServer,
    initial_env: { NODE_OPTIONS: '--max-old-space-size=4096', NPM_CONFIG_REGISTRY: 'https://npm.acme.example/' },
    working_dir: '',
  },
  {
    id: SPEC.data,
    command: agentServer,
    initial_env: { PYTHONUNBUFFERED: '1', PIP_INDEX_URL: 'https://pypi.acme.example/simple' },
    working_dir: '',
  },
  { id: SPEC.gpu, command: ['/bin/sh', '-c', WAITS_FOR_A_GPU], initial_env: { CUDA_VISIBLE_DEVICES: '0,1,2,3' }, working_dir: 'training' },
  {
    id: SPEC.postgres,
    command: ['/bin/sh', '-c', CANNOT_INITIALISE],
    initial_env: { PGDATA: 'pgdata', POSTGRES_DB: 'orders' },
    working_dir: '',
  },
  {
    id: SPEC.nightly,
    command: ['/bin/sh', '-c', ENDS_ON_ITS_OWN],
    initial_env: { BASE_URL: 'https://staging.acme.example' },
    working_dir: '',
  },
];

/** Writes the specs where SANDBOX_SPECS_FILE will name them; returns the file. */
export function writeSpecsFile(dir: string): string {
  const file = path.join(dir, 'sandbox-specs.json');
  fs.writeFileSync(file, `${JSON.stringify(DEMO_SPECS, null, 2)}\n`, { mode: 0o600 });
  return file;
}
