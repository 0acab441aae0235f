import { type $ZodIssue, type $ZodType, type output, safeParse } from 'zod/v4/core';
import { withEntry } from './own-entry';

/*
 * Pydantic's lax mode (what OpenHands' models accept), for a request about to be checked by a
 * strict contract schema: `laxInput(schema, value)` converts, where the schema wants a number or
 * a boolean, the inputs Pydantic v2 converts (its conversion table; pydantic-core's
 * `str_as_int`, `str_as_float`, `str_as_bool`). Anything it cannot convert is left as it came, so
 * the schema refuses it with the original input (`int_parsing`, `bool_parsing`, … in the 422).
 * The schemas stay strict: the console's forms and response parsing never see these inputs.
 */

/** A decimal integer as pydantic-core's `clean_int_str` reads it: sign, digits with single underscores between, and `.0…` allowed. */
const INT_STRING = /^[+-]?\d+(?:_\d+)*(?:\.0+)?$/;
/** What Rust's `f64::from_str` reads. */
const FLOAT_STRING = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Its words for the values that are not finite, read as such so that they are refused as `finite_number`. */
const NOT_FINITE_STRING = /^([+-]?)(?:(inf|infinity)|nan)$/i;
const TRUE_WORDS = new Set(['t', 'y', 'on', 'yes', 'true']);
const FALSE_WORDS = new Set(['f', 'n', 'no', 'off', 'false']);

/** pydantic-core strips underscores only between digits: none leading, trailing or doubled. */
function withoutUnderscores(text: string): string | undefined {
  if (!text.includes('_') || text.startsWith('_') || text.endsWith('_') || text.includes('__')) return undefined;
  return text.replaceAll('_', '');
}

export function laxInteger(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!INT_STRING.test(text)) return value;
  return Number(text.replace(/\.0+$/, '').replaceAll('_', ''));
}

export function laxNumber(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (FLOAT_STRING.test(trimmed)) return Number(trimmed);
  const notFinite = NOT_FINITE_STRING.exec(trimmed);
  if (notFinite) return notFinite[2] ? (notFinite[1] === '-' ? -Infinity : Infinity) : NaN;
  const stripped = withoutUnderscores(value);
  return stripped !== undefined && FLOAT_STRING.test(stripped) ? Number(stripped) : value;
}

export function laxBoolean(value: unknown): unknown {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'string') return value;
  if (value === '1') return true;
  if (value === '0') return false;
  const word = value.toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return value;
}

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, $ZodType>;
  element?: $ZodType;
  valueType?: $ZodType;
  innerType?: $ZodType;
  in?: $ZodType;
  out?: $ZodType;
  options?: $ZodType[];
  discriminator?: string;
  getter?: () => $ZodType;
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The option of a discriminated union the value's tag names. */
function taggedOption(options: $ZodType[], discriminator: string, value: Record<string, unknown>): $ZodType | undefined {
  return options.find((option) => {
    const tag = defOf(option).shape?.[discriminator];
    return tag !== undefined && safeParse(tag, value[discriminator]).success;
  });
}

/**
 * `value` with every number and boolean input Pydantic would convert converted, following
 * `schema`. Objects and arrays are copied where something changed, never modified.
 */
export function laxInput(schema: $ZodType, value: unknown): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'number':
      return def.format?.includes('int') ? laxInteger(value) : laxNumber(value);
    case 'boolean':
      return laxBoolean(value);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return value === undefined || value === null || !def.innerType ? value : laxInput(def.innerType, value);
    case 'lazy':
      return def.getter ? laxInput(def.getter(), value) : value;
    case 'pipe':
      // A pipe starting with a transform (a shorthand such as an MCP `args` string) is followed on its output side.
      if (!def.in || !def.out) return value;
      return laxInput(def.in._zod.traits.has('$ZodTransform') ? def.out : def.in, value);
    case 'object': {
      if (!isObject(value) || !def.shape) return value;
      let copy: Record<string, unknown> | undefined;
      for (const [key, field] of Object.entries(def.shape)) {
        if (!Object.hasOwn(value, key)) continue;
        const converted = laxInput(field, value[key]);
        if (converted !== value[key]) withEntry((copy ??= { ...value }), key, converted);
      }
      return copy ?? value;
    }
    case 'record': {
      if (!isObject(value) || !def.valueType) return value;
      let copy: Record<string, unknown> | undefined;
      for (const [key, entry] of Object.entries(value)) {
        const converted = laxInput(def.valueType, entry);
        if (converted !== entry) withEntry((copy ??= { ...value }), key, converted);
      }
      return copy ?? value;
    }
    case 'array': {
      if (!Array.isArray(value) || !def.element) return value;
      const element = def.element;
      const converted = value.map((item: unknown) => laxInput(element, item));
      return converted.some((item, index) => item !== value[index]) ? converted : value;
    }
    case 'union': {
      const options = def.options ?? [];
      if (def.discriminator !== undefined) {
        const option = isObject(value) ? taggedOption(options, def.discriminator, value) : undefined;
        return option ? laxInput(option, value) : value;
      }
      // Pydantic's smart union: an option the input fits exactly wins; else the first it converts into.
      if (options.some((option) => safeParse(option, value).success)) return value;
      for (const option of options) {
        const converted = laxInput(option, value);
        if (converted !== value && safeParse(option, converted).success) return converted;
      }
      return value;
    }
    default:
      return value;
  }
}

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (value, key) => (typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    root,
  );

/** A converted value refused all the same (`"0"` where at least 1 goes) is reported as it was sent, as Pydantic does. */
function withSentInput(issue: $ZodIssue, sent: unknown, converted: unknown): $ZodIssue {
  if (typeof issue.input !== 'number' && typeof issue.input !== 'boolean') return issue;
  const before = valueAt(sent, issue.path);
  const wasConverted = !Object.is(before, issue.input) && Object.is(valueAt(converted, issue.path), issue.input);
  return wasConverted ? ({ ...issue, input: before } as $ZodIssue) : issue;
}

/** `schema` checking `value` after `laxInput`, its issues (with their `input`) naming the values as they were sent. */
export function laxSafeParse<S extends $ZodType>(
  schema: S,
  value: unknown,
): { success: true; data: output<S> } | { success: false; issues: $ZodIssue[] } {
  const converted = laxInput(schema, value);
  const result = safeParse(schema, converted, { reportInput: true });
  if (result.success) return { success: true, data: result.data };
  return { success: false, issues: result.error.issues.map((issue) => withSentInput(issue, value, converted)) };
}
