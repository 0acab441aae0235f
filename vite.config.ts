import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { configDefaults } from 'vitest/config';
import { linguiMacros } from './scripts/lingui-macros.ts';
import { pagePreloads } from './scripts/page-preloads.ts';
import { precompress } from './scripts/precompress.ts';
import { reactRouterProduction } from './scripts/react-router-production.ts';
import { tableWithoutScrollArea } from './scripts/table-without-scroll-area.ts';

// The console is served by the reference server in production; in `npm run dev` Vite proxies the
// API to a server started separately with `npm start` (PORT 3000 by default).
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

/** Suites about PostgreSQL alone: several instances on one database, the copy to it, its connections. */
const POSTGRES_ONLY = [
  'server/services/instances/instance-registry.test.ts',
  'server/services/instances/multi-instance.test.ts',
  'server/store/copy-to-postgres.test.ts',
  'server/store/postgres-connections.test.ts',
];

export default defineConfig({
  plugins: [
    react(),
    babel({ presets: [linguiMacros()] }),
    lingui(),
    tableWithoutScrollArea(),
    reactRouterProduction(),
    precompress(),
    pagePreloads(),
  ],
  server: { proxy: { '/api': apiTarget, '/openapi.json': apiTarget, '/sign-in': apiTarget, '/sign-out': apiTarget } },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 700,
    // The manifest tells `npm run size` which chunks each page loads, and scripts/page-preloads.ts what each page's HTML preloads.
    manifest: true,
    rolldownOptions: {
      output: {
        // Short names: every chunk spells out the names of those it imports, and the entry those
        // of every chunk loaded on demand; a hash alone names a file's content. The letter first
        // keeps a name from starting with the hash's `-` or `_`.
        entryFileNames: 'assets/e[hash].js',
        chunkFileNames: 'assets/c[hash].js',
        // What the entry imports statically (React, the router, Mantine's core, the layout) goes in
        // one file: every page loads all of it anyway, and a dozen small files each cost their own
        // gzip dictionary and import lists.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'console',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test-setup.ts'],
          css: false,
          // One jsdom and one module graph per worker, not per file: setting them up again for
          // each file took most of the suite's time. The setup file cleans up after each test.
          isolate: false,
          // All its files in one worker (a worker given files one by one sets up jsdom again for
          // each). `npm run test:unit` runs it in a Vitest of its own beside the server's, so both
          // cores work from the start; in one Vitest a group has one worker count, so it goes first.
          sequence: { groupOrder: 0 },
          maxWorkers: 1,
          // A limit that catches a hang, not a measure of speed: typing into forms in jsdom is slow
          // on a busy machine, and a test that fails only there proves nothing.
          testTimeout: 30_000,
        },
      },
      {
        // The server's own words (refusals, value errors) are Lingui messages too, with their catalogs.
        plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] }), lingui()],
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          // PostgreSQL's own suites only when the run has a cluster (TEST_POSTGRES=1, see server/testing/databases.ts);
          // the reliability suites (hostile sandboxes, crashes, fuzzing) only in the full run (`npm test`), not `test:quick`.
          exclude: [
            ...configDefaults.exclude,
            ...(process.env.TEST_POSTGRES ? [] : POSTGRES_ONLY),
            ...(process.env.TEST_RELIABILITY ? [] : ['server/reliability/**']),
          ],
          // Each worker loads the server's modules once, not once per file: a file restores what it changes.
          isolate: false,
          // Two cores, but these tests mostly wait on processes, sandboxes and sockets: four files at once
          // keep both cores busy (three left them idle at times; five raced on the Docker engine).
          sequence: { groupOrder: 1 },
          maxWorkers: 4,
          // Limits that catch a hang, not measures of speed: a test with containers, or a hook that
          // starts an app, takes several times as long on a loaded machine, and would fail there only.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          globalSetup: [
            './server/testing/build-global-setup.ts',
            './server/testing/docker-global-setup.ts',
            './server/testing/postgres-global-setup.ts',
          ],
        },
      },
      {
        // `npm run soak` only: the long suites (load), next to the full runs of the server's reliability suites.
        plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] }), lingui()],
        test: {
          name: 'soak',
          environment: 'node',
          include: ['server/**/*.soak.ts'],
          testTimeout: 600_000,
          globalSetup: ['./server/testing/build-global-setup.ts'],
        },
      },
    ],
  },
});
