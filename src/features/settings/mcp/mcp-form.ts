import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, Resolver } from 'react-hook-form';
import { safeParse } from 'zod/mini';
import { mcpTestRequestSchema } from '../../../contract/mcp';
import { issueMessage, readableMessage, toValidationDetail } from '../../../contract/validation-error';
import { envRowProblems } from './env';
import { entryFor, formFieldFor, type McpServerFormValues, type McpServerRow } from './mcp-model';

/**
 * Checks one server's form: the contract's rules for its kind (the server's own words), each
 * env row on its own (names, repeats), and that no other server has the same name or URL.
 * Every problem is reported at its input, all at once.
 */
export function mcpServerResolver(others: readonly McpServerRow[]): Resolver<McpServerFormValues> {
  return async (values, _context, options) => {
    const errors: Record<string, FieldError> = {};
    const report = (field: string, message: string) => {
      errors[field] ??= { type: 'validate', message };
    };

    const result = safeParse(mcpTestRequestSchema, entryFor(values, null), { error: issueMessage, reportInput: true });
    if (!result.success) {
      const rowIds = values.args.map((_, index) => String(index));
      for (const entry of toValidationDetail(result.error.issues)) {
        const path = entry.loc.join('.');
        if (path === 'env' || path.startsWith('env.')) continue; // the rows below say it per row
        report(formFieldFor(path, readableMessage(entry), rowIds, rowIds, []), readableMessage(entry));
      }
    }
    if (values.kind === 'stdio') {
      for (const [index, message] of envRowProblems(values.env)) report(`env.${index}.key`, message);
      const name = values.name.trim();
      if (name && others.some((row) => row.kind === 'stdio' && row.label === name)) report('name', `Another server is named ${name}`);
    } else {
      const url = values.url.trim();
      if (url && others.some((row) => row.kind !== 'stdio' && row.label === url)) report('url', 'Another server has this URL');
    }

    return Object.keys(errors).length > 0 ? { values: {}, errors: toNestErrors(errors, options) } : { values, errors: {} };
  };
}
