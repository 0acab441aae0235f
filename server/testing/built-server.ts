import path from 'node:path';

/**
 * An entry of the server as `npm start` runs it, built into build/server/ (vite.server.config.ts;
 * the server tests' global setup and `npm run build` build it when out of date).
 */
export const builtServerScript = (entry: 'main' | 'demo' | 'migrate-to-postgres' | 'audit-verify' | 'run-server'): string =>
  path.resolve(import.meta.dirname, '../../build/server', `${entry}.js`);
