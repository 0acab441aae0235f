import type { Resolver } from 'react-hook-form';
import { contractBodyResolver } from '../../components/form/contract-resolver';
import { KEEP_SECRET, type SecretDraft, secretUpdate } from '../../components/form/secret-field';
import {
  DEFAULT_SETTINGS,
  type SettingsResponse,
  type SettingsFieldsUpdate,
  settingsFieldsUpdateSchema,
  type SettingsUpdateInput,
} from '../../contract/settings';
import type { LlmTestRequestInput } from '../../contract/llm-test';
import { FIELD_NAMES, fieldsOfKind, type SETTINGS_FIELDS, type SettingsFormField } from './settings-fields';

/**
 * The Settings form: its values (what the inputs hold), how they come from the server's settings
 * and how they become the fields of a `POST /api/settings`. Form field names are the settings'
 * own names, so a server error's `loc` names the input it belongs to. The fields themselves are
 * declared in `settings-fields.ts`.
 */

/** What each kind of input holds. Number inputs hold text: '' is "not set". */
interface FormValueOfKind {
  text: string;
  suggest: string;
  select: string;
  number: string;
  switch: boolean;
  secret: SecretDraft;
}

export type SettingsFormValues = { [F in SettingsFormField]: FormValueOfKind[(typeof SETTINGS_FIELDS)[F]['kind']] };

const TEXT_FIELDS = fieldsOfKind('text', 'suggest', 'select');
const NUMBER_FIELDS = fieldsOfKind('number');
const SWITCH_FIELDS = fieldsOfKind('switch');
const SECRET_INPUTS = fieldsOfKind('secret');

export const SETTINGS_FORM_FIELDS: ReadonlySet<string> = new Set<string>(FIELD_NAMES);

/** Inputs start from the stored settings (or the defaults before the first save); secrets empty. */
export function toFormValues(settings: SettingsResponse | null): SettingsFormValues {
  const source = settings ?? DEFAULT_SETTINGS;
  const values: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) values[field] = source[field] ?? '';
  for (const field of NUMBER_FIELDS) values[field] = source[field] === null || source[field] === undefined ? '' : String(source[field]);
  for (const field of SWITCH_FIELDS) values[field] = source[field] ?? false;
  for (const field of SECRET_INPUTS) values[field] = KEEP_SECRET;
  return values as SettingsFormValues;
}

function numberUpdate(value: string): number | string | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  // Leave what isn't a number as typed, so the contract names the problem at the field.
  return Number.isNaN(n) ? value : n;
}

/** Every input as a settings field: blank text and numbers become `null`, secrets per draft. */
export function toSettingsUpdate(values: SettingsFormValues): SettingsUpdateInput {
  const update: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) update[field] = values[field].trim() === '' ? null : values[field].trim();
  for (const field of NUMBER_FIELDS) update[field] = numberUpdate(values[field]);
  for (const field of SWITCH_FIELDS) update[field] = values[field];
  for (const field of SECRET_INPUTS) update[field] = secretUpdate(values[field]);
  return update as SettingsUpdateInput;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields whose input differs from `original`, as a POST takes them: a save never overwrites fields the user did not touch. */
export function changedSettings(values: SettingsFormValues, original: SettingsFormValues): SettingsUpdateInput {
  const update = toSettingsUpdate(values) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(update).filter(([field]) => !sameValue(values[field as SettingsFormField], original[field as SettingsFormField])),
  ) as SettingsUpdateInput;
}

/**
 * The form checked with the contract itself (the same rules and words as the server), changed
 * fields only: a stored value today's rules refuse (set by another client, say) must not block
 * saving anything else. What it submits is those fields as the POST's body.
 */
export function settingsResolver(original: SettingsFormValues): Resolver<SettingsFormValues, unknown, SettingsFieldsUpdate> {
  return contractBodyResolver((values) => changedSettings(values, original), settingsFieldsUpdateSchema, {
    isField: (path) => SETTINGS_FORM_FIELDS.has(path),
  });
}

/** After a save: what was typed is now stored, and secret inputs go back to empty ("keep"). */
export function savedFormValues(values: SettingsFormValues): SettingsFormValues {
  const saved = { ...values };
  for (const field of SECRET_INPUTS) saved[field] = KEEP_SECRET;
  return saved;
}

/** The LLM as the form has it, for a test: an empty key field stands for the stored key (`null`). */
export function llmTestRequest(values: Pick<SettingsFormValues, 'llm_model' | 'llm_base_url' | 'llm_api_key'>): LlmTestRequestInput {
  return {
    model: values.llm_model.trim(),
    base_url: values.llm_base_url.trim() === '' ? null : values.llm_base_url.trim(),
    api_key: secretUpdate(values.llm_api_key),
  };
}
