/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pagePreloads } from './scripts/page-preloads';
import { precompress } from './scripts/precompress';
import { reactRouterProduction } from './scripts/react-router-production';
import { tableWithoutScrollArea } from './scripts/table-without-scroll-area';

// The console is served by the reference server in production; in `npm run dev` Vite proxies the
// API to a server started separately with `npm start` (PORT 3000 by default).
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tableWithoutScrollArea(), reactRouterProduction(), precompress(), pagePreloads()],
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
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          testTimeout: 20_000,
          globalSetup: ['./server/testing/docker-global-setup.ts', './server/testing/postgres-global-setup.ts'],
        },
      },
      {
        // `npm run soak` only: the long suites (load), next to the full runs of the server's reliability suites.
        test: {
          name: 'soak',
          environment: 'node',
          include: ['server/**/*.soak.ts'],
          testTimeout: 600_000,
        },
      },
    ],
  },
});
