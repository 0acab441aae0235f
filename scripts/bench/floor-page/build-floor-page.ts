import path from 'node:path';
import { build } from 'vite';
import { precompress } from '../../precompress';

/** Builds floor.html into `consoleDir` (its script and stylesheet under assets/, served as the console's are). */
export async function buildFloorPage(consoleDir: string): Promise<void> {
  await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'error',
    plugins: [precompress()],
    build: { outDir: consoleDir, emptyOutDir: false, rolldownOptions: { input: path.join(import.meta.dirname, 'floor.html') } },
  });
}
