import { split } from 'shlex';
import { ENV_NAME_PATTERN } from './rules';

/*
 * The shorter forms OpenHands' MCP models accept in a request (`openhands/core/config/mcp_config.py`,
 * its before-validators), with its messages: a URL string for an SSE or SHTTP server, `args` as
 * one command line, `env` as `"A=1,B=2"`, and `null` args or env as none.
 */

export type Expanded<T> = { value: T } | { problem: string };

/** Python's `shlex` words for the two ways a split fails. */
const SHLEX_PROBLEMS: Record<string, string> = {
  'Got EOF while in a quoted string': 'No closing quotation',
  'Got EOF while in an escape sequence': 'No escaped character',
};

/** `args` as a list: a string is split as `shlex.split` does (blank: none), `null` is none, anything else is left to the schema. */
export function expandArgs(args: unknown): Expanded<unknown> {
  if (args === null) return { value: [] };
  if (typeof args !== 'string') return { value: args };
  if (args.trim() === '') return { value: [] };
  try {
    return { value: split(args.trim()) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      problem: `Invalid argument format: ${SHLEX_PROBLEMS[reason] ?? reason}. Use shell-like format, e.g., "arg1 arg2" or '--config "value with spaces"'`,
    };
  }
}

/** `env` as a map: `"A=1,B=2"` is read as OpenHands reads it (blank and empty pairs skipped), `null` is none. */
export function expandEnv(env: unknown): Expanded<unknown> {
  if (env === null) return { value: {} };
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
    Object.defineProperty(vars, key, { value: pair.slice(equals + 1), enumerable: true, writable: true, configurable: true });
  }
  return { value: vars };
}

/** An SSE or SHTTP server given as its URL alone. */
export const expandServer = (server: unknown): Expanded<unknown> => ({ value: typeof server === 'string' ? { url: server } : server });
