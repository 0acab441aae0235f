import { describe, expect, it } from 'vitest';
import { KEEP_SECRET } from '../../components/form/secret-field';
import { DEFAULT_SETTINGS, type SettingsResponse } from '../../contract/settings';
import { changedSettings, savedFormValues, SETTINGS_FORM_FIELDS, settingsResolver, toFormValues, toSettingsUpdate } from './settings-form';

const stored: SettingsResponse = {
  ...DEFAULT_SETTINGS,
  llm_model: 'openai/gpt-5',
  max_iterations: 40,
  max_budget_per_task: 2.5,
  confirmation_mode: null,
  language: 'fr',
  mcp_config: null,
  llm_api_key_set: true,
  search_api_key_set: false,
  sandbox_api_key_set: false,
  provider_tokens_set: {},
};

describe('toFormValues', () => {
  it('fills inputs from stored settings: null as empty text or off, numbers as text, secrets empty', () => {
    const values = toFormValues(stored);
    expect(values.llm_model).toBe('openai/gpt-5');
    expect(values.llm_base_url).toBe('');
    expect(values.max_iterations).toBe('40');
    expect(values.max_budget_per_task).toBe('2.5');
    expect(values.confirmation_mode).toBe(false);
    expect(values.enable_default_condenser).toBe(true);
    expect(values.llm_api_key).toEqual({ value: '', clear: false });
  });

  it('starts from the defaults before anything was stored', () => {
    expect(toFormValues(null)).toMatchObject({
      llm_model: '',
      enable_proactive_conversation_starters: true,
      enable_sound_notifications: false,
    });
  });

  it("has an input for every settings field except MCP, secrets_store and the account's email, which is read-only", () => {
    const editable = Object.keys(DEFAULT_SETTINGS).filter((key) => !['mcp_config', 'email', 'email_verified'].includes(key));
    expect([...SETTINGS_FORM_FIELDS].sort()).toEqual(editable.sort());
  });
});

describe('savedFormValues', () => {
  it('empties every secret input (now stored) and keeps the rest as typed', () => {
    const typed = {
      ...toFormValues(stored),
      language: 'de',
      llm_api_key: { value: 'sk', clear: false },
      search_api_key: { value: '', clear: true },
    };
    expect(savedFormValues(typed)).toEqual({
      ...typed,
      llm_api_key: KEEP_SECRET,
      search_api_key: KEEP_SECRET,
      sandbox_api_key: KEEP_SECRET,
    });
  });
});

describe('toSettingsUpdate', () => {
  it('turns blank text and numbers into null, trims text and parses numbers', () => {
    const values = {
      ...toFormValues(stored),
      llm_model: '  anthropic/claude  ',
      llm_base_url: '   ',
      max_iterations: '',
      max_budget_per_task: '3.75',
    };
    expect(toSettingsUpdate(values)).toMatchObject({
      llm_model: 'anthropic/claude',
      llm_base_url: null,
      max_iterations: null,
      max_budget_per_task: 3.75,
    });
  });

  it('sends null for a secret to keep, the value to replace and "" to clear', () => {
    const values = { ...toFormValues(stored), llm_api_key: { value: 'sk-new', clear: false }, search_api_key: { value: '', clear: true } };
    expect(toSettingsUpdate(values)).toMatchObject({ llm_api_key: 'sk-new', search_api_key: '', sandbox_api_key: null });
  });
});

describe('changedSettings', () => {
  const original = toFormValues(stored);

  it('has only the fields whose input differs from the stored one', () => {
    const values = { ...original, language: 'de', git_user_name: 'ada' };
    expect(changedSettings(values, original)).toEqual({ language: 'de', git_user_name: 'ada' });
  });

  it('has a secret only when its draft changed', () => {
    const values = { ...original, llm_api_key: { value: '', clear: true } };
    expect(changedSettings(values, original)).toEqual({ llm_api_key: '' });
  });
});

describe('settingsResolver', () => {
  const resolverOptions = { fields: {}, shouldUseNativeValidation: false } as Parameters<ReturnType<typeof settingsResolver>>[2];
  const original = toFormValues(stored);
  const check = (patch: Partial<ReturnType<typeof toFormValues>>) =>
    settingsResolver(original)({ ...original, ...patch }, undefined, resolverOptions);

  it('submits nothing for the stored values unchanged', async () => {
    expect(await check({})).toEqual({ values: {}, errors: {} });
  });

  it('submits the changed fields as the body of the POST', async () => {
    expect(await check({ max_iterations: '75', llm_model: ' x/y ' })).toEqual({
      values: { max_iterations: 75, llm_model: 'x/y' },
      errors: {},
    });
  });

  it('submits nothing while a field breaks a rule', async () => {
    const result = await check({ max_iterations: '0', llm_model: 'x/y' });
    expect(result.values).toEqual({});
    expect(Object.keys(result.errors)).toEqual(['max_iterations']);
  });

  it('lets an untouched stored value that breaks a rule through, but reports it once changed', async () => {
    // e.g. a base URL another client stored without a scheme
    const original = { ...toFormValues(stored), llm_base_url: 'localhost:11434' };
    const resolve = settingsResolver(original);

    const untouched = await resolve({ ...original, git_user_name: 'ada' }, undefined, resolverOptions);
    expect(untouched).toEqual({ values: { git_user_name: 'ada' }, errors: {} });

    const edited = await resolve({ ...original, llm_base_url: 'still-bad' }, undefined, resolverOptions);
    expect(edited.errors).toHaveProperty('llm_base_url');
  });

  it("reports the contract's rules at their fields in one style, the console's, as a server's 422 for them reads", async () => {
    const original = toFormValues(stored);
    const resolve = settingsResolver(original);
    const result = await resolve(
      {
        ...original,
        condenser_max_size: '10',
        llm_base_url: 'localhost:11434',
        git_user_email: 'nope',
        max_iterations: '1.5',
        max_budget_per_task: '0',
      },
      undefined,
      resolverOptions,
    );
    const byField = Object.fromEntries(Object.entries(result.errors).map(([field, error]) => [field, error?.message]));
    expect(byField).toEqual({
      condenser_max_size: 'Must be at least 20',
      llm_base_url: 'URL must start with http:// or https://',
      git_user_email: 'Enter an email address such as name@example.com',
      max_iterations: 'Must be a valid integer',
      max_budget_per_task: 'Must be greater than 0',
    });
  });
});
