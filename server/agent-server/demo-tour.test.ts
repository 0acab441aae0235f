import { describe, expect, it } from 'vitest';
import { tourOf } from './demo-model';

const LISTING = `exit code 0
total 48
drwxr-xr-x 6 sandbox sandbox 4096 Dec  2 10:00 .
drwxr-xr-x 3 sandbox sandbox 4096 Dec  2 10:00 ..
drwxr-xr-x 8 sandbox sandbox 4096 Dec  2 10:00 .git
drwxr-xr-x 2 sandbox sandbox 4096 Dec  2 10:00 .github
-rw-r--r-- 1 sandbox sandbox  812 Dec  2 10:00 README.md
-rw-r--r-- 1 sandbox sandbox  640 Dec  2 10:00 package.json
drwxr-xr-x 2 sandbox sandbox 4096 Dec  2 10:00 public
drwxr-xr-x 5 sandbox sandbox 4096 Dec  2 10:00 src
drwxr-xr-x 2 sandbox sandbox 4096 Dec  2 10:00 tests
-rw-r--r-- 1 sandbox sandbox  120 Dec  2 10:00 notes from a meeting.txt
lrwxrwxrwx 1 sandbox sandbox    9 Dec  2 10:00 docs -> site/docs`;

describe('the demo model’s tour', () => {
  it('says what is where in the workspace it listed, and how to run it', () => {
    const tour = tourOf(LISTING);
    expect(tour).toContain('- `src`: the code');
    expect(tour).toContain('- `tests`: the tests');
    expect(tour).toContain('- `README.md`: where to start reading');
    expect(tour).toContain('- `.github`: the CI workflows');
    expect(tour).toContain('- `docs`: the documentation');
    expect(tour).toContain('To run it: `npm install`, then `npm run dev`');
    expect(tour).not.toContain('.git`');
    expect(tour).not.toContain('meeting');
  });

  it('says so when there is nothing to tour', () => {
    expect(tourOf('exit code 0\ntotal 8\ndrwxr-xr-x 2 s s 4096 Dec  2 10:00 .\ndrwxr-xr-x 3 s s 4096 Dec  2 10:00 ..')).toBe(
      'The workspace is empty so far: nothing to tour yet.',
    );
  });
});
