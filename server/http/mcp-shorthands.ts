import { withEntry } from './own-entry';
import { ENV_NAME_PATTERN } from '../../src/contract/rules';
import { ShlexError, shlexSplit } from '../../src/contract/shlex-split';

/*
 * The shorter forms OpenHands' MCP models accept in a request (`openhands/core/config/mcp_config.py`,
 * its before-validators), with its messages: a URL string for an SSE or SHTTP server, `args` as
 * one command line, `env` as `"A=1,B=2"`, and, as its `v or []` / `v or {}` reads them, `null`,
 * `false`, `0` or `""` args or env as none.
 */

export type Expanded = { value: unknown } | { problem: string };

/** What Python's `not v` holds for among the JSON values a list or map field may be sent. */
const isFalsy = (value: unknown): boolean => value === null || value === false || value === 0 || value === '';

/** `args` as a list: a string is split as `shlex.split` does (blank: none), a falsy value is none, anything else is left to the schema. */
export function expandArgs(args: unknown): Expanded {
  if (isFalsy(args)) return { value: [] };
  if (typeof args !== 'string') return { value: args };
  if (args.trim() === '') return { value: [] };
  try {
    return { value: shlexSplit(args.trim()) };
  } catch (error) {
    if (!(error instanceof ShlexError)) throw error;
    return {
      problem: `Invalid argument format: ${error.message}. Use shell-like format, e.g., "arg1 arg2" or '--config "value with spaces"'`,
    };
  }
}

/** `env` as a map: `"A=1,B=2"` is read as OpenHands reads it (blank and empty pairs skipped), a falsy value is none. */
export function expandEnv(env: unknown): Expanded {
  if (isFalsy(env)) return { value: {} };
  if (typeof env !== 'string') return { value: env };
  const vars: Record<string, string> = {};
  for (const raw of env.split(',')) {
    const pair = raw.trim();
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    if (equals === -1) return { problem: `Environment variable '${pair}' must be in KEY=VALUE format` };
    const key = pair.slice(0, equals).trim();
    if (key === '') return { problem: 'Environment variable key cannot be empty' };
    if (!ENV_NAME_PATTERN.test(key)) {
      return {
        problem: `Invalid environment variable name '${key}'. Must start with letter or underscore, contain only alphanumeric characters and underscores`,
      };
    }
    withEntry(vars, key, pair.slice(equals + 1));
  }
  return { value: vars };
}

/** An SSE or SHTTP server given as its URL alone. */
export const expandServer = (server: unknown): Expanded => ({ value: typeof server === 'string' ? { url: server } : server });
