// `npm start`. Its modules load after the code cache is in place, so each compiles with the code
// V8 made for it at an earlier start.
import { installCodeCache } from './code-cache';

const codeCache = installCodeCache(import.meta.dirname);
import('./start').then(
  ({ start, failedToStart }) => start(codeCache.save).catch(failedToStart),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
