// Builds the console (vite build) unless dist/ is newer than every source it is built from, so
// `npm start` on a fresh clone just works and later starts don't rebuild for nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist', 'index.html');
const inputs = ['src', 'public', 'index.html', 'vite.config.ts', 'postcss.config.cjs', 'package-lock.json'];

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs.readdirSync(target).reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));

if (builtAt > sourcesAt) {
  console.log('Console build is up to date.');
} else {
  console.log('Building the console…');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'vite'), ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
