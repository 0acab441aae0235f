// Builds the console (into dist/) and the agent server (into build/) unless each is newer than
// every source it is built from, so `npm start` on a fresh clone just works and later starts
// don't rebuild for nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const TARGETS = [
  {
    name: 'the console',
    output: 'dist/index.html',
    // The build's own plugins in scripts/ too.
    inputs: [
      'src',
      'public',
      'index.html',
      'vite.config.ts',
      'postcss.config.cjs',
      'package-lock.json',
      'scripts/page-preloads.ts',
      'scripts/precompress.ts',
      'scripts/vite-manifest.ts',
      'scripts/react-router-production.ts',
      'scripts/table-without-scroll-area.ts',
    ],
    args: ['build'],
  },
  {
    name: 'the agent server',
    output: 'build/agent-server/main.js',
    // Everything the agent server imports.
    inputs: [
      'server/agent-server',
      'server/session-key.ts',
      'server/lax-input.ts',
      'src/contract',
      'vite.agent-server.config.ts',
      'package-lock.json',
    ],
    args: ['build', '-c', 'vite.agent-server.config.ts', '--logLevel', 'warn'],
  },
];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

for (const target of TARGETS) {
  const output = path.join(root, target.output);
  const builtAt = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const sourcesAt = Math.max(...target.inputs.map((input) => newestMtime(path.join(root, input))));
  if (builtAt > sourcesAt) {
    console.log(`Build of ${target.name} is up to date.`);
    continue;
  }
  console.log(`Building ${target.name}…`);
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), target.args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
