// Builds the console (into dist/), the agent server (into build/agent-server/) and the server
// (into build/server/) unless each is newer than every source it is built from, so `npm start` on
// a fresh clone just works, the test suites build what they run once, and later starts don't
// rebuild for nothing. `node scripts/build-if-needed.mjs [console] [agent-server] [server] [test-support]`
// builds the ones named (all that `npm start` needs when none is).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const TARGETS = {
  console: {
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
    config: 'vite.config.ts',
  },
  'agent-server': {
    name: 'the agent server',
    output: 'build/agent-server/main.js',
    // Everything the agent server imports.
    inputs: [
      'server/agent-server',
      'server/session-key.ts',
      'server/http/lax-input.ts',
      'server/http/own-entry.ts',
      'server/http/validation-detail.ts',
      'src/contract',
      'vite.agent-server.config.ts',
      'scripts/commonjs-package.ts',
      'package-lock.json',
    ],
    config: 'vite.agent-server.config.ts',
  },
  server: {
    name: 'the server',
    output: 'build/server/main.js',
    inputs: ['server', 'src/contract', 'vite.server.config.ts', 'scripts/commonjs-package.ts', 'package-lock.json'],
    // What the server never imports: editing a test does not rebuild it.
    ignore: /\.test\.ts$|\.soak\.ts$|^server\/testing\//,
    config: 'vite.server.config.ts',
  },
  // What the tests start as processes; built only when named.
  'test-support': {
    name: 'the test support processes',
    output: 'build/test-support/stdio-server.js',
    inputs: ['test-support/mcp', 'vite.test-support.config.ts', 'package-lock.json'],
    config: 'vite.test-support.config.ts',
    onlyWhenNamed: true,
  },
};

/** The newest modification time in `input` (a file or a directory, relative to the root), `ignore`d paths left out. */
function newestMtime(input, ignore) {
  if (ignore?.test(input) || !fs.existsSync(path.join(root, input))) return 0;
  const stat = fs.statSync(path.join(root, input));
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(path.join(root, input))
    .reduce((newest, name) => Math.max(newest, newestMtime(path.posix.join(input, name), ignore)), stat.mtimeMs);
}

const names = process.argv.slice(2);
for (const name of names) {
  if (!(name in TARGETS)) {
    console.error(`No build called ${name}: ${Object.keys(TARGETS).join(', ')}`);
    process.exit(2);
  }
}

for (const name of names.length > 0 ? names : Object.keys(TARGETS).filter((target) => !TARGETS[target].onlyWhenNamed)) {
  const target = TARGETS[name];
  const output = path.join(root, target.output);
  const builtAt = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const sourcesAt = Math.max(...target.inputs.map((input) => newestMtime(input, target.ignore)));
  if (builtAt > sourcesAt) continue;
  console.log(`Building ${target.name}…`);
  // Quiet: only warnings and errors, so what `npm start` prints next is not lost among them.
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build', '-c', target.config, '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
