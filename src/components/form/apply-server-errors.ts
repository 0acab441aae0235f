import { t } from '@lingui/core/macro';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { describeError, isApiError } from '../../api/errors';
import type { Loc, ValidationErrorEntry } from '../../contract/validation-detail';
import { type FieldPlacement, fieldForOf, mapValidationErrors } from './validation-errors';

/** What a failed save shows above the form: a sentence, and the 422 entries no input took. */
export interface SaveProblem {
  message: string;
  unmatched: ValidationErrorEntry[];
}

export type ServerErrorOptions<T extends FieldValues> = FieldPlacement & {
  /** Where the form's values sit in a 422 `loc` (default `["body"]`); entries elsewhere are not the form's. */
  locPrefix?: Loc;
  /** Responses other than a 422 that belong to one field, by status: `{ 400: 'name' }`. */
  statusField?: Partial<Record<number, FieldPath<T>>>;
  /** Responses other than a 422 that have a sentence of their own, by status. */
  statusMessage?: Partial<Record<number, string>>;
  /** How the alert starts: "Nothing was saved" unless the action is not a save. */
  verdict?: string;
};

const startsWith = (loc: Loc, prefix: Loc) => prefix.every((part, index) => loc[index] === part);

/**
 * Puts a failed save's server error on the form: 422 entries on the inputs their `loc` names,
 * other responses on the field they belong to (`statusField`), and returns what is left for a
 * `<SaveProblemAlert>`, or `null` when every part of the error found its input.
 */
export function applyServerErrors<T extends FieldValues>(
  form: { setError: UseFormSetError<T> },
  error: unknown,
  options: ServerErrorOptions<T>,
): SaveProblem | null {
  const verdict = options.verdict ?? t`Nothing was saved`;
  if (!isApiError(error)) return { message: `${verdict}: ${describeError(error)}`, unmatched: [] };
  if (error.validation.length === 0) {
    // A 401 about the session key is not about any field: the sign-in dialog handles it.
    const status = error.kind === 'http' && !error.isUnauthorized ? error.status : undefined;
    const field = status === undefined ? undefined : options.statusField?.[status];
    if (field !== undefined) {
      form.setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
      return null;
    }
    const message = status === undefined ? undefined : options.statusMessage?.[status];
    return { message: message ?? `${verdict}: ${error.message}`, unmatched: [] };
  }

  const prefix = options.locPrefix ?? ['body'];
  const fieldFor = fieldForOf(options);
  const original = new Map<ValidationErrorEntry, ValidationErrorEntry>();
  const outside: ValidationErrorEntry[] = [];
  for (const entry of error.validation) {
    if (!startsWith(entry.loc, prefix)) {
      outside.push(entry);
      continue;
    }
    const own = { ...entry, loc: entry.loc.slice(prefix.length) };
    original.set(own, entry);
  }
  const { fieldErrors, unmatched } = mapValidationErrors([...original.keys()], fieldFor);
  fieldErrors.forEach(({ field, message }, index) =>
    form.setError(field as FieldPath<T>, { type: 'server', message }, { shouldFocus: index === 0 }),
  );
  const rest = [...unmatched.map((entry) => original.get(entry) ?? entry), ...outside];
  if (rest.length === 0) return null;
  const message =
    fieldErrors.length > 0
      ? t`${verdict}. The server rejected the values marked below, and these:`
      : t`${verdict}. The server rejected these:`;
  return { message, unmatched: rest };
}
