import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { precompress } from '../../precompress';

/** Builds floor.html (its script and stylesheet under assets/, as the console's) into a new temporary directory: its path. */
export async function buildFloorPage(): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-bench-floor-'));
  await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'error',
    plugins: [precompress()],
    build: { outDir, emptyOutDir: false, rolldownOptions: { input: path.join(import.meta.dirname, 'floor.html') } },
  });
  return outDir;
}
