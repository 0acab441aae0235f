import { readableMessage, type ValidationErrorEntry } from '../../contract/validation-error';

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

/**
 * Puts each entry of a 422 `detail` on the form field its `loc` names: the leading `"body"` is
 * dropped and the nearest enclosing field is used (an error inside `env.KEY` lands on `env`).
 * Several messages for one field are joined.
 */
export function mapValidationErrors(detail: readonly ValidationErrorEntry[], isField: (path: string) => boolean): MappedValidation {
  const messages = new Map<string, string[]>();
  const unmatched: ValidationErrorEntry[] = [];
  for (const entry of detail) {
    const loc = entry.loc[0] === 'body' ? entry.loc.slice(1) : entry.loc;
    let field: string | undefined;
    for (let length = loc.length; length > 0 && field === undefined; length--) {
      const candidate = loc.slice(0, length).join('.');
      if (isField(candidate)) field = candidate;
    }
    if (field === undefined) unmatched.push(entry);
    else messages.set(field, [...(messages.get(field) ?? []), readableMessage(entry)]);
  }
  return {
    fieldErrors: [...messages].map(([field, list]) => ({ field, message: [...new Set(list)].join(' ') })),
    unmatched,
  };
}
