import * as z from 'zod/mini';

/**
 * One entry of a FastAPI/Pydantic validation error, the shape of OpenHands' 422 responses:
 * `{"detail": [{type, loc, msg, input, ctx?}]}`. Our server produces it from zod issues with
 * `toValidationDetail`; the console parses it and maps `loc` onto form fields.
 */
export const validationErrorEntrySchema = z.object({
  type: z.string(),
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  input: z.optional(z.unknown()),
  ctx: z.optional(z.record(z.string(), z.unknown())),
});
export type ValidationErrorEntry = z.infer<typeof validationErrorEntrySchema>;

export const validationErrorBodySchema = z.object({ detail: z.array(validationErrorEntrySchema) });

export type Loc = ValidationErrorEntry['loc'];

/** How Pydantic starts the message of a failed check of its own (a `value_error`). */
export const VALUE_ERROR_PREFIX = 'Value error, ';

/** The message a person should read: Pydantic's "Value error, " prefix is noise in a form. */
export function readableMessage(entry: Pick<ValidationErrorEntry, 'msg'>): string {
  return entry.msg.startsWith(VALUE_ERROR_PREFIX) ? entry.msg.slice(VALUE_ERROR_PREFIX.length) : entry.msg;
}
