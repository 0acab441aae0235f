import { screen, within } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import type { SaveProblem } from '../../components/form/apply-server-errors';
import { DEFAULT_SETTINGS, type SettingsResponse, type SettingsUpdate } from '../../contract/settings';
import { renderView } from '../../testing/render';
import type { LlmTest } from './llm-test-panel';
import { llmTestRequest, type SettingsFormValues, toFormValues } from './settings-form';
import { SettingsFormView } from './settings-form-view';
import type { SettingsChoices } from './settings-sections';

const stored: SettingsResponse = {
  ...DEFAULT_SETTINGS,
  llm_model: 'openai/gpt-5',
  max_iterations: 40,
  mcp_config: null,
  llm_api_key_set: true,
  search_api_key_set: false,
  sandbox_api_key_set: false,
  provider_tokens_set: {},
};

function Harness({
  settings,
  problem,
  llmTest,
  callbacks,
  choices,
  unstorable,
  notUsed,
  inherited,
}: {
  settings: SettingsResponse | null;
  problem: SaveProblem | null;
  llmTest: LlmTest;
  callbacks: Callbacks;
  choices?: SettingsChoices;
  unstorable?: 'sandbox_api_key'[];
  notUsed?: Record<string, string>;
  inherited?: string[];
}) {
  const form = useForm<SettingsFormValues, unknown, SettingsUpdate>({ defaultValues: toFormValues(settings) });
  return (
    <SettingsFormView
      form={form}
      stored={settings}
      problem={problem}
      onSubmit={(event) => {
        event.preventDefault();
        callbacks.onSubmit();
      }}
      onDiscard={callbacks.onDiscard}
      onDismissProblem={callbacks.onDismissProblem}
      llmTest={llmTest}
      onTestLlm={callbacks.onTestLlm}
      choices={choices}
      unstorable={unstorable}
      notUsed={notUsed}
      inherited={inherited}
    />
  );
}

type Callbacks = Record<'onSubmit' | 'onDiscard' | 'onDismissProblem' | 'onTestLlm', () => void>;

const NO_TEST: LlmTest = { request: null, pending: false, result: undefined, error: null };
/** A finished test of the stored LLM fields as the form starts with them. */
const testOfStored = (result: LlmTest['result']): LlmTest => ({
  request: JSON.stringify(llmTestRequest(toFormValues(stored))),
  pending: false,
  result,
  error: null,
});

function setup(
  settings: SettingsResponse | null,
  problem: SaveProblem | null = null,
  llmTest: LlmTest = NO_TEST,
  choices?: SettingsChoices,
) {
  const callbacks = { onSubmit: vi.fn(), onDiscard: vi.fn(), onDismissProblem: vi.fn(), onTestLlm: vi.fn() };
  return {
    ...renderView(<Harness settings={settings} problem={problem} llmTest={llmTest} callbacks={callbacks} choices={choices} />),
    ...callbacks,
  };
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' });

describe('SettingsFormView', () => {
  it("offers the server's agents and security analyzers as choices, keeps a stored one it does not offer, and says when it offers none", () => {
    setup({ ...stored, agent: 'BrowsingAgent' }, null, NO_TEST, { agents: ['CodeActAgent'], 'security-analyzers': [] });
    const agent = screen.getByRole('combobox', { name: 'Agent' });
    expect(
      within(agent)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Server default', 'CodeActAgent', 'BrowsingAgent']);
    expect(agent).toHaveValue('BrowsingAgent');
    const analyzer = screen.getByRole('combobox', { name: 'Security analyzer' });
    expect(
      within(analyzer)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['None']);
    expect(analyzer).toHaveAccessibleDescription('Rates risky actions when confirmation mode is on. This server offers none');
  });

  it("suggests the server's models too, and placeholders read as examples, not values", () => {
    setup(null, null, NO_TEST, { models: ['ollama/qwen3-coder:30b'] });
    const model = input('LLM model');
    expect(model).toHaveAttribute('placeholder', 'e.g. anthropic/claude-sonnet-4-5-20250929');
    const suggestions = document.getElementById(model.getAttribute('list') ?? '');
    expect([...(suggestions?.querySelectorAll('option') ?? [])].map((option) => option.getAttribute('value'))).toContain(
      'ollama/qwen3-coder:30b',
    );
    expect(input('Git user name')).toHaveAttribute('placeholder', 'e.g. openhands');
  });

  it('says when nothing is stored yet, and shows the defaults', () => {
    setup(null);
    expect(screen.getByText('Nothing stored yet')).toBeInTheDocument();
    expect(input('LLM model')).toHaveValue('');
    expect(screen.getByRole('switch', { name: /^Default condenser/ })).toBeChecked();
  });

  it('shows every section with the stored values and which secrets are set', () => {
    setup(stored);
    expect(screen.queryByText('Nothing stored yet')).not.toBeInTheDocument();
    for (const title of ['LLM', 'Agent', 'Sandbox', 'Git identity', 'Search', 'Preferences', 'Account']) {
      expect(screen.getByRole('region', { name: title })).toBeInTheDocument();
    }
    expect(input('LLM model')).toHaveValue('openai/gpt-5');
    expect(input('Max iterations')).toHaveValue('40');
    expect(screen.getByTestId('llm_api_key-status')).toHaveTextContent('Set');
    expect(screen.getByTestId('search_api_key-status')).toHaveTextContent('Not set');
  });

  it('says the sandbox API key cannot be stored, instead of offering it, where the server cannot store it (OpenHands)', () => {
    const callbacks = { onSubmit: vi.fn(), onDiscard: vi.fn(), onDismissProblem: vi.fn(), onTestLlm: vi.fn() };
    const view = renderView(
      <Harness settings={stored} problem={null} llmTest={NO_TEST} callbacks={callbacks} unstorable={['sandbox_api_key']} />,
    );
    const sandbox = screen.getByRole('region', { name: 'Sandbox' });
    expect(within(sandbox).getByText('Sandbox API key: this server (OpenHands) cannot store it.')).toBeInTheDocument();
    expect(within(sandbox).queryByLabelText('Sandbox API key')).not.toBeInTheDocument();
    view.unmount();
    setup(stored);
    expect(within(screen.getByRole('region', { name: 'Sandbox' })).getByLabelText('Sandbox API key')).toBeInTheDocument();
  });

  it('shows a save problem with what matched no field, and dismisses it', async () => {
    const problem = {
      message: 'Nothing was saved. The server rejected these:',
      unmatched: [{ type: 'extra_forbidden', loc: ['body', 'mcp_config', 'foo'], msg: 'Extra inputs are not permitted' }],
    };
    const { user, onDismissProblem } = setup(stored, problem);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Settings not saved');
    expect(alert).toHaveTextContent('mcp_config.foo: Unknown field');
    await user.click(within(alert).getByRole('button'));
    expect(onDismissProblem).toHaveBeenCalled();
  });

  it('says what the sandbox images are, and how Docker sandboxes reach a local LLM', () => {
    setup(stored);
    expect(input('Sandbox runtime image')).toHaveAccessibleDescription(
      'New Docker sandboxes of the default spec start from it; it must run the agent server. Empty: the default image',
    );
    expect(input('Sandbox base image')).toHaveAccessibleDescription(
      'New Docker sandboxes of the default spec run an image built on it (an image on the engine with /bin/sh, bash and git); the runtime image wins',
    );
    expect(input('LLM base URL')).toHaveAccessibleDescription(
      /Docker sandboxes reach localhost and 127\.0\.0\.1 as host\.docker\.internal/,
    );
  });

  it("says which values are the team's defaults, and no other", () => {
    const callbacks = { onSubmit: vi.fn(), onDiscard: vi.fn(), onDismissProblem: vi.fn(), onTestLlm: vi.fn() };
    renderView(
      <Harness settings={stored} problem={null} llmTest={NO_TEST} callbacks={callbacks} inherited={['llm_model', 'llm_api_key']} />,
    );
    expect(input('LLM model')).toHaveAccessibleDescription(/Your team’s default/);
    expect(screen.getAllByText(/Your team’s default/)).toHaveLength(2);
  });

  it('marks the fields the server says it does not use, with why when it says, and no other', () => {
    const callbacks = { onSubmit: vi.fn(), onDiscard: vi.fn(), onDismissProblem: vi.fn(), onTestLlm: vi.fn() };
    renderView(
      <Harness
        settings={stored}
        problem={null}
        llmTest={NO_TEST}
        callbacks={callbacks}
        notUsed={{ remote_runtime_resource_factor: 'process sandboxes have no limit to multiply', git_user_name: '' }}
      />,
    );
    expect(input('Remote runtime resource factor')).toHaveAccessibleDescription(
      "Multiplies each Docker sandbox's CPUs and memory. Not used by this server: process sandboxes have no limit to multiply",
    );
    // A server of ours that names the fields alone (an older one) gives no reason.
    expect(input('Git user name')).toHaveAccessibleDescription('Not used by this server');
    expect(screen.getAllByText(/Not used by this server/)).toHaveLength(2);
    expect(input('Sandbox runtime image')).not.toHaveAccessibleDescription(/Not used/);
  });

  it("shows the account's email and whether a provider verified it, read-only, and never sends them", async () => {
    const { user, onSubmit } = setup({ ...stored, email: 'ada@example.com', email_verified: true });
    const account = within(screen.getByRole('region', { name: 'Account' }));
    // Its code comes after the page's.
    expect(await account.findByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(account.getByRole('textbox', { name: 'Email' })).toHaveAttribute('readonly');
    expect(account.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(/The address you sign in with/);
    expect(account.getByRole('textbox', { name: 'Email verified' })).toHaveValue('Yes');
    expect(account.getByRole('textbox', { name: 'Email verified' })).toHaveAccessibleDescription(/an identity provider said/);
    await user.type(account.getByRole('textbox', { name: 'Email' }), 'x');
    expect(account.getByRole('textbox', { name: 'Email' })).toHaveValue('ada@example.com');
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('says an account has no email, and not whether it is verified, when the server knows none', async () => {
    setup({ ...stored, email: null, email_verified: null });
    const account = within(screen.getByRole('region', { name: 'Account' }));
    expect(await account.findByRole('textbox', { name: 'Email' })).toHaveValue('');
    expect(account.getByRole('textbox', { name: 'Email' })).toHaveAttribute('placeholder', 'None on this account');
    expect(account.getByRole('textbox', { name: 'Email verified' })).toHaveValue('');
  });

  it('says a settings value of false for email_verified as No', async () => {
    setup({ ...stored, email: 'bo@example.com', email_verified: false });
    expect(await within(screen.getByRole('region', { name: 'Account' })).findByRole('textbox', { name: 'Email verified' })).toHaveValue(
      'No',
    );
  });

  it('offers to save and discard only once something changed', async () => {
    const { user, onSubmit, onDiscard } = setup(stored);
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Discard' })).not.toBeInTheDocument();
    await user.type(input('Git user name'), 'ada');
    expect(screen.getByRole('status')).toHaveTextContent('You have unsaved changes.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(onDiscard).toHaveBeenCalledTimes(1);
  });

  it('offers the demo model with one click, which needs no key, until it is the model', async () => {
    const { user } = setup(null);
    const llm = within(screen.getByRole('region', { name: 'LLM' }));
    expect(llm.getByText(/No LLM or key at hand\?/)).toHaveTextContent(
      'The demo model (demo/scripted) plays a scripted session with no LLM and no key.',
    );
    await user.click(llm.getByRole('button', { name: 'Use the demo model' }));
    expect(input('LLM model')).toHaveValue('demo/scripted');
    expect(screen.getByRole('status')).toHaveTextContent('You have unsaved changes.');
    expect(llm.queryByRole('button', { name: 'Use the demo model' })).not.toBeInTheDocument();
  });

  it('tests the LLM on request, once a model is chosen', async () => {
    const { user, onTestLlm } = setup(stored);
    await user.click(screen.getByRole('button', { name: 'Test LLM' }));
    expect(onTestLlm).toHaveBeenCalledTimes(1);
    await user.clear(input('LLM model'));
    expect(screen.getByRole('button', { name: 'Test LLM' })).toBeDisabled();
  });

  it("shows the model's reply", async () => {
    setup(stored, null, testOfStored({ ok: true, model: 'gpt-5', reply: 'Ready to help.' }));
    const llm = screen.getByRole('region', { name: 'LLM' });
    // The outcome's code comes with the first test.
    expect(await within(llm).findByRole('status')).toHaveTextContent('gpt-5 responded');
    expect(within(llm).getByRole('status')).toHaveTextContent('Ready to help.');
  });

  it("shows the provider's refusal in words, until the tested fields change", async () => {
    const { user } = setup(stored, null, testOfStored({ ok: false, error: 'The provider rejected the API key (HTTP 401: bad key).' }));
    const llm = screen.getByRole('region', { name: 'LLM' });
    expect(await within(llm).findByRole('alert')).toHaveTextContent('The LLM did not respond');
    expect(within(llm).getByRole('alert')).toHaveTextContent('The provider rejected the API key (HTTP 401: bad key).');
    await user.type(input('LLM base URL'), 'http://localhost:4000/v1');
    expect(within(llm).queryByRole('alert')).not.toBeInTheDocument();
  });
});
