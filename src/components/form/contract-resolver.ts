import type { FieldError, FieldErrors, FieldPath, FieldValues, Resolver } from 'react-hook-form';
import * as z from 'zod/mini';
import { issueWords, ownCheckMessage } from '../../api/validation-words';
import { type FieldPlacement, fieldForOf, mapValidationErrors } from './validation-errors';

/** Problems of a form's own, which no request body holds (a password typed twice), by field. */
export type FormProblems<T extends FieldValues> = (values: T) => Partial<Record<FieldPath<T>, string | undefined>>;

/** The form's values checked as the request body they make: the errors by input, and the body when there are none. */
function check<T extends FieldValues, S extends z.ZodMiniType>(
  values: T,
  toBody: (values: T) => z.input<S>,
  schema: S,
  options: FieldPlacement & { formProblems?: FormProblems<T> },
): { ok: true; body: z.output<S> } | { ok: false; errors: FieldErrors<T> } {
  const errors: Record<string, FieldError> = {};
  for (const [field, message] of Object.entries(options.formProblems?.(values) ?? {})) {
    if (typeof message === 'string') errors[field] = { type: 'form', message };
  }
  const parsed = z.safeParse(schema, toBody(values), { error: issueWords });
  const entries = (parsed.error?.issues ?? []).map((issue) => ({
    type: 'value_error',
    loc: issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
    msg: ownCheckMessage(issue),
  }));
  const { fieldErrors, unmatched } = mapValidationErrors(entries, fieldForOf(options));
  for (const { field, message } of fieldErrors) errors[field] ??= { type: 'contract', message };
  if (unmatched.length > 0) {
    errors.root = { type: 'contract', message: unmatched.map((entry) => `${entry.loc.join('.') || 'request'}: ${entry.msg}`).join('; ') };
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, body: parsed.data };
  return { ok: false, errors: errors as FieldErrors<T> };
}

/**
 * A form's resolver: its values made into the request's body (`toBody`) and checked with the
 * contract's `schema`, so that the form refuses what the server would, in the same words and at
 * the same field as the server's 422 for it would be shown; the form's own problems first. The
 * form submits its own values, not the body. What finds no field is the form's `root` error.
 */
export function contractResolver<T extends FieldValues, S extends z.ZodMiniType>(
  toBody: (values: T) => z.input<S>,
  schema: S,
  options: FieldPlacement & { formProblems?: FormProblems<T> },
): Resolver<T> {
  return (values) => {
    const checked = check(values, toBody, schema, options);
    return checked.ok ? { values, errors: {} } : { values: {}, errors: checked.errors };
  };
}

/** As `contractResolver`, but the form submits the checked body itself (the POST's, as the schema outputs it). */
export function contractBodyResolver<T extends FieldValues, S extends z.ZodMiniType>(
  toBody: (values: T) => z.input<S>,
  schema: S,
  options: FieldPlacement,
): Resolver<T, unknown, z.output<S>> {
  return (values) => {
    const checked = check(values, toBody, schema, options);
    return checked.ok ? { values: checked.body, errors: {} } : { values: {}, errors: checked.errors };
  };
}
