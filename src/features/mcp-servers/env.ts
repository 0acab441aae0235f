import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { ENV_NAME_PATTERN, processTextProblem } from '../../contract/rules';

export interface EnvRow {
  key: string;
  value: string;
}

export function envToRows(env: Record<string, string>): EnvRow[] {
  return Object.entries(env).map(([key, value]) => ({ key, value }));
}

/** Rows as the env object; rows without a key (a blank row) are left out. */
export function rowsToEnv(rows: readonly EnvRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.key.trim() !== '').map((row) => [row.key.trim(), row.value]));
}

/**
 * What is wrong with each row, by its field (`<index>.key`, `<index>.value`): bad names and
 * repeats (the later ones), values no process can be given; in `i18n`'s language.
 */
export function envRowProblems(rows: readonly EnvRow[], i18n: I18n): Map<`${number}.${keyof EnvRow}`, string> {
  const problems = new Map<`${number}.${keyof EnvRow}`, string>();
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const valueProblem = processTextProblem(row.value);
    if (valueProblem) problems.set(`${index}.value`, i18n._(valueProblem));
    const key = row.key.trim();
    if (key === '') {
      if (row.value !== '') problems.set(`${index}.key`, i18n._(msg`Give this variable a name`));
      return;
    }
    if (!ENV_NAME_PATTERN.test(key)) {
      problems.set(`${index}.key`, i18n._(msg`Use letters, digits and underscores, not starting with a digit`));
    } else if (seen.has(key)) {
      problems.set(`${index}.key`, i18n._(msg`${key} is already set above`));
    }
    seen.add(key);
  });
  return problems;
}
