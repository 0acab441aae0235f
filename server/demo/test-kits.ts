/*
 * How each language's tests look and report: a test file of named cases, the command that runs
 * it, and what the runner prints when its cases pass or one fails. The cases themselves belong
 * to each repository (see toolchains.ts).
 */

/** A test case: its name in words ("rejects a negative amount") and its body, indented as the file wants it. */
export interface TestCase {
  name: string;
  body: string;
}

export interface TestKit {
  /** Where a test file about `slug` goes. */
  path: (slug: string) => string;
  /** The test file: `header` (its imports), then the cases. */
  file: (header: string, cases: TestCase[]) => string;
  run: (path: string) => string;
  passed: (path: string, cases: TestCase[]) => string;
  /** The runner's report of `failing`, which failed with `error`. */
  failed: (path: string, failing: TestCase, error: string) => string;
}

const words = (name: string) => name.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (name: string) =>
  words(name)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
const snake = (name: string) => words(name).join('_').toLowerCase();
const quoted = (name: string) => `'${name.replaceAll("'", "\\'")}'`;

export const VITEST: TestKit = {
  path: (slug) => `tests/${slug}.test.tsx`,
  file: (header, cases) =>
    `${header}\n\n${cases.map((test) => `it(${quoted(test.name)}, async () => {\n${test.body}\n});`).join('\n\n')}\n`,
  run: (path) => `npx vitest run ${path}`,
  passed: (path, cases) =>
    [
      ` ✓ ${path} (${cases.length} test${cases.length === 1 ? '' : 's'}) 184ms`,
      '',
      ' Test Files  1 passed (1)',
      `      Tests  ${cases.length} passed (${cases.length})`,
      '   Duration  1.92s',
    ].join('\n'),
  failed: (path, failing, error) =>
    [
      ` ❯ ${path} (1 test | 1 failed) 61ms`,
      `   × ${failing.name} 38ms`,
      '',
      '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
      '',
      ` FAIL  ${path} > ${failing.name}`,
      error,
      '',
      ' Test Files  1 failed (1)',
      '      Tests  1 failed (1)',
      '   Duration  1.71s',
    ].join('\n'),
};

export const JEST: TestKit = {
  ...VITEST,
  path: (slug) => `__tests__/${slug}.test.tsx`,
  run: (path) => `npx jest ${path}`,
  passed: (path, cases) =>
    [
      ` PASS  ${path}`,
      ...cases.map((test) => `  ✓ ${test.name} (41 ms)`),
      '',
      `Tests:       ${cases.length} passed, ${cases.length} total`,
    ].join('\n'),
  failed: (path, failing, error) =>
    [` FAIL  ${path}`, `  ● ${failing.name}`, '', `    ${error}`, '', 'Tests:       1 failed, 1 total'].join('\n'),
};

/** Go tests of package `pkg` (its import path) in folder `dir`. */
export function goTests(pkg: string, dir: string): TestKit {
  return {
    path: (slug) => `${dir}/${snake(slug)}_test.go`,
    file: (header, cases) =>
      `${header}\n\n${cases.map((test) => `func Test${pascal(test.name)}(t *testing.T) {\n${test.body}\n}`).join('\n\n')}\n`,
    run: () => `go test ./${dir}/ -run . -v`,
    passed: (_path, cases) =>
      [
        ...cases.flatMap((test) => [`=== RUN   Test${pascal(test.name)}`, `--- PASS: Test${pascal(test.name)} (0.00s)`]),
        'PASS',
        `ok  \t${pkg}\t0.214s`,
      ].join('\n'),
    failed: (path, failing, error) =>
      [
        `=== RUN   Test${pascal(failing.name)}`,
        `    ${path.split('/').at(-1)}:12: ${error}`,
        `--- FAIL: Test${pascal(failing.name)} (0.00s)`,
        'FAIL',
        `FAIL\t${pkg}\t0.198s`,
      ].join('\n'),
  };
}

export const PYTEST: TestKit = {
  path: (slug) => `tests/test_${snake(slug)}.py`,
  file: (header, cases) => `${header}\n\n\n${cases.map((test) => `def test_${snake(test.name)}():\n${test.body}`).join('\n\n\n')}\n`,
  run: (path) => `pytest -q ${path}`,
  passed: (_path, cases) => `${'.'.repeat(cases.length)}${' '.repeat(40)}[100%]\n${cases.length} passed in 0.38s`,
  failed: (path, failing, error) =>
    [
      `F${' '.repeat(40)}[100%]`,
      '=================================== FAILURES ===================================',
      `_____________________ test_${snake(failing.name)} _____________________`,
      `E   ${error}`,
      '=========================== short test summary info ============================',
      `FAILED ${path}::test_${snake(failing.name)} - ${error}`,
      '1 failed in 0.44s',
    ].join('\n'),
};

export const TERRAFORM_TEST: TestKit = {
  path: (slug) => `tests/${slug}.tftest.hcl`,
  file: (header, cases) => `${header}\n\n${cases.map((test) => `run "${snake(test.name)}" {\n${test.body}\n}`).join('\n\n')}\n`,
  run: (path) => `terraform test -filter=${path}`,
  passed: (path, cases) =>
    [
      `${path}... in progress`,
      ...cases.map((test) => `  run "${snake(test.name)}"... pass`),
      `${path}... pass`,
      '',
      `Success! ${cases.length} passed, 0 failed.`,
    ].join('\n'),
  failed: (path, failing, error) =>
    [
      `${path}... in progress`,
      `  run "${snake(failing.name)}"... fail`,
      '╷',
      '│ Error: Test assertion failed',
      '│',
      `│ ${error}`,
      '╵',
      `${path}... fail`,
      '',
      'Failure! 0 passed, 1 failed.',
    ].join('\n'),
};
