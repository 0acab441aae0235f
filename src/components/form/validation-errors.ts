import type { ValidationErrorEntry } from '../../contract/validation-detail';
import { validationWords } from '../../api/validation-words';

export interface FieldError {
  /** Dotted form path, e.g. `mcp_config.stdio_servers.0.name`. */
  field: string;
  message: string;
}

export interface MappedValidation {
  fieldErrors: FieldError[];
  /** Entries that name no field the form has; shown together above the form. */
  unmatched: ValidationErrorEntry[];
}

/** The form field a `loc` path (dotted, without `"body"`) belongs to, if any. */
export type FieldFor = (path: string, entry: ValidationErrorEntry) => string | undefined;

/** The nearest enclosing path that is a field (an error inside `env.KEY` lands on `env`). */
export const nearestField =
  (isField: (path: string) => boolean): FieldFor =>
  (path) => {
    const parts = path.split('.');
    for (let length = parts.length; length > 0; length--) {
      const candidate = parts.slice(0, length).join('.');
      if (isField(candidate)) return candidate;
    }
    return undefined;
  };

/** Where a form's values sit: which dotted paths are its inputs, or the input each path belongs to. */
export type FieldPlacement =
  | {
      /** Whether the form has an input at a dotted path; a problem lands on the nearest enclosing one. */
      isField: (path: string) => boolean;
    }
  | {
      /** The form field for a dotted path, for forms whose fields are not named as the body is (rows). */
      fieldFor: FieldFor;
    };

export const fieldForOf = (placement: FieldPlacement): FieldFor =>
  'fieldFor' in placement ? placement.fieldFor : nearestField(placement.isField);

/**
 * Puts each entry of a 422 `detail` on the form field its `loc` names (a leading `"body"` is
 * dropped), in the console's words. Several messages for one field are joined.
 */
export function mapValidationErrors(detail: readonly ValidationErrorEntry[], fieldFor: FieldFor): MappedValidation {
  const messages = new Map<string, string[]>();
  const unmatched: ValidationErrorEntry[] = [];
  for (const entry of detail) {
    const loc = entry.loc[0] === 'body' ? entry.loc.slice(1) : entry.loc;
    const field = fieldFor(loc.join('.'), entry);
    if (field === undefined) unmatched.push(entry);
    else messages.set(field, [...(messages.get(field) ?? []), validationWords(entry)]);
  }
  return {
    fieldErrors: [...messages].map(([field, list]) => ({ field, message: [...new Set(list)].join(' ') })),
    unmatched,
  };
}
