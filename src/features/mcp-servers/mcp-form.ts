import { toNestErrors } from '@hookform/resolvers';
import type { I18n } from '@lingui/core';
import type { FieldError, Resolver } from 'react-hook-form';
import type { McpConfigResponse, McpTestRequestInput } from '../../contract/mcp';
import { envRowProblems } from './env';
import { EMPTY_MCP_CONFIG, entryFor, formFieldFor, type McpServerFormValues, problemsAdding, withoutServer } from './mcp-model';

/**
 * Checks one server's form with the contract, on the config it would produce (so the same rules,
 * duplicates included, and the server's own words), plus each env row on its own. Every problem
 * is reported at its input, all at once; the rows' problems in `i18n`'s language.
 */
export function mcpServerResolver(config: McpConfigResponse | null, originalId: string | null, i18n: I18n): Resolver<McpServerFormValues> {
  return async (values, _context, options) => {
    const errors: Record<string, FieldError> = {};
    const report = (field: string, message: string) => {
      errors[field] ??= { type: 'validate', message };
    };
    const others = originalId === null ? (config ?? EMPTY_MCP_CONFIG) : withoutServer(config ?? EMPTY_MCP_CONFIG, originalId);
    const entry: McpTestRequestInput = entryFor(values, null);
    for (const { path, message } of problemsAdding(others, entry)) {
      if (path === 'env' || path.startsWith('env.')) continue; // the rows below say it per row
      report(formFieldFor(path, message, [], i18n), message);
    }
    if (values.kind === 'stdio') for (const [field, message] of envRowProblems(values.env, i18n)) report(`env.${field}`, message);
    return Object.keys(errors).length > 0 ? { values: {}, errors: toNestErrors(errors, options) } : { values, errors: {} };
  };
}
