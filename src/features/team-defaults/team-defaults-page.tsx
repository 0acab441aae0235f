import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, SimpleGrid, Stack, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useController, useForm } from 'react-hook-form';
import { NumberField, SelectField, SuggestField, SwitchField, TextField } from '../../components/form/fields';
import { SaveProblemAlert } from '../../components/form/save-problem-alert';
import { KEEP_SECRET, SecretField, type SecretDraft, secretUpdate } from '../../components/form/secret-field';
import { useServerSubmit } from '../../components/form/use-server-submit';
import { LoadedContent } from '../../components/query-content';
import { SectionHeader } from '../../components/section-header';
import type { OrganizationDefaults, OrganizationDefaultsUpdate } from '../../contract/organization-defaults';
import { mcpConfigForUpdate } from '../../api/settings';
import { optionsQuery } from '../../queries/options';
import { organizationDefaultsQuery, updateOrganizationDefaultsMutation } from '../../queries/team';

/** What the router loads: the page, and the catalog of its strings. */
export { TeamDefaultsPage as Page };
export { loadTeamDefaultsCatalog as catalog } from './catalog';

/** The form's values: text as typed ('' for "no default"), the key as a draft. */
export interface TeamDefaultsValues {
  llm_model: string;
  llm_base_url: string;
  llm_api_key: SecretDraft;
  agent: string;
  confirmation_mode: boolean;
  security_analyzer: string;
  max_budget_per_task: string;
  sandbox_runtime_container_image: string;
  sandbox_base_container_image: string;
  /** The shared MCP servers as JSON, in the shape of `mcp_config` (keys stay stored when `api_key` is null). */
  mcp_config: string;
}

const NO_SERVERS = { sse_servers: [], stdio_servers: [], shttp_servers: [] };

export const toValues = (defaults: OrganizationDefaults): TeamDefaultsValues => ({
  llm_model: defaults.llm_model ?? '',
  llm_base_url: defaults.llm_base_url ?? '',
  llm_api_key: KEEP_SECRET,
  agent: defaults.agent ?? '',
  confirmation_mode: defaults.confirmation_mode ?? false,
  security_analyzer: defaults.security_analyzer ?? '',
  max_budget_per_task: defaults.max_budget_per_task === null ? '' : String(defaults.max_budget_per_task),
  sandbox_runtime_container_image: defaults.sandbox_runtime_container_image ?? '',
  sandbox_base_container_image: defaults.sandbox_base_container_image ?? '',
  mcp_config: JSON.stringify(mcpConfigForUpdate(defaults.mcp_config ?? NO_SERVERS), null, 2),
});

const text = (value: string) => (value.trim() === '' ? null : value.trim());

/** The shared servers typed, or why they are not JSON (the parser's words). */
export function sharedServers(text: string): { value: unknown } | { notJson: string } {
  if (text.trim() === '') return { value: null };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { notJson: (error as Error).message };
  }
}

/** What a save sends: every field (an empty one removes that default), the key only when it changes. */
export const toUpdate = (values: TeamDefaultsValues, mcpConfig: unknown): OrganizationDefaultsUpdate => ({
  llm_model: text(values.llm_model),
  llm_base_url: text(values.llm_base_url),
  llm_api_key: secretUpdate(values.llm_api_key),
  agent: text(values.agent),
  confirmation_mode: values.confirmation_mode,
  security_analyzer: text(values.security_analyzer),
  max_budget_per_task: values.max_budget_per_task.trim() === '' ? null : Number(values.max_budget_per_task),
  sandbox_runtime_container_image: text(values.sandbox_runtime_container_image),
  sandbox_base_container_image: text(values.sandbox_base_container_image),
  // The server checks it: its 422 names the place.
  mcp_config: mcpConfig as OrganizationDefaultsUpdate['mcp_config'],
});

const FIELDS = new Set(Object.keys(toValues({} as OrganizationDefaults)));

/**
 * Admins: what every user's settings fall back to. A user's own value overrides each default;
 * the LLM key goes only with the default LLM URL; shared MCP servers join each user's own.
 */
export function TeamDefaultsPage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const defaults = useQuery(organizationDefaultsQuery(queryClient));
  return (
    <Stack>
      <SectionHeader
        title={t`Team defaults`}
        description={t`What each user's settings fall back to. A user's own value wins; clearing it brings the default back.`}
      />
      <LoadedContent data={defaults.data} error={defaults.error} onRetry={() => void defaults.refetch()} what={t`team defaults`}>
        {(loaded) => <TeamDefaultsForm defaults={loaded} />}
      </LoadedContent>
    </Stack>
  );
}

function TeamDefaultsForm({ defaults }: { defaults: OrganizationDefaults }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const form = useForm<TeamDefaultsValues>({ defaultValues: toValues(defaults) });
  const save = useMutation(updateOrganizationDefaultsMutation(queryClient));
  const agents = useQuery(optionsQuery('agents')).data ?? [];
  const analyzers = useQuery(optionsQuery('security-analyzers')).data ?? [];
  const { submit, problem, dismissProblem } = useServerSubmit(form, {
    save: async (values) => {
      const servers = sharedServers(values.mcp_config);
      if ('notJson' in servers) {
        const reason = servers.notJson;
        form.setError('mcp_config', { message: t`Not JSON: ${reason}` });
        return;
      }
      const saved = await save.mutateAsync(toUpdate(values, servers.value));
      form.reset(toValues(saved));
      notifications.show({ color: 'teal', message: t`Team defaults saved` });
    },
    // An error inside the shared servers (`mcp_config.sse_servers.0.url`) lands on their field.
    serverErrors: { isField: (path) => FIELDS.has(path) },
  });
  const shared = defaults.mcp_config;
  const sharedCount = shared ? shared.sse_servers.length + shared.shttp_servers.length + shared.stdio_servers.length : 0;
  return (
    <FormProvider {...form}>
      <form onSubmit={submit} noValidate aria-label={t`Team defaults`}>
        <Stack>
          {problem && <SaveProblemAlert problem={problem} title={t`Team defaults not saved`} onClose={dismissProblem} />}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <SuggestField<TeamDefaultsValues> name="llm_model" label={t`LLM model`} suggestions={[]} placeholder={t`No default`} />
            <TextField<TeamDefaultsValues> name="llm_base_url" label={t`LLM base URL`} type="url" placeholder={t`The provider's own`} />
            <SecretField<TeamDefaultsValues>
              name="llm_api_key"
              label={t`LLM API key`}
              isSet={defaults.llm_api_key_set}
              description={t`Used by everyone who has no key of their own, with the default base URL only`}
            />
            <SelectField<TeamDefaultsValues>
              name="agent"
              label={t`Agent`}
              placeholder={t`Server default`}
              options={agents.map((name) => ({ value: name, label: name }))}
            />
            <SelectField<TeamDefaultsValues>
              name="security_analyzer"
              label={t`Security analyzer`}
              placeholder={t`None`}
              options={analyzers.map((name) => ({ value: name, label: name }))}
            />
            <NumberField<TeamDefaultsValues> name="max_budget_per_task" label={t`Budget per task`} unit="$" />
            <TextField<TeamDefaultsValues> name="sandbox_runtime_container_image" label={t`Sandbox runtime image`} />
            <TextField<TeamDefaultsValues> name="sandbox_base_container_image" label={t`Sandbox base image`} />
          </SimpleGrid>
          <SwitchField<TeamDefaultsValues>
            name="confirmation_mode"
            label={t`Confirmation mode`}
            description={t`The agent asks before it acts, for everyone who has not turned it off`}
          />
          <JsonField
            name="mcp_config"
            label={t`Shared MCP servers (${plural(sharedCount, { 0: 'none', other: '#' })})`}
            description={t`Every user's agent gets these beside their own, with their keys and environment: sse_servers, stdio_servers and shttp_servers as in Settings; a key left null stays as stored`}
          />
          <Group justify="flex-end">
            <Button variant="default" disabled={!form.formState.isDirty} onClick={() => form.reset(toValues(defaults))}>
              <Trans>Discard</Trans>
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
              <Trans>Save team defaults</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </FormProvider>
  );
}

/** JSON typed into a monospace area, with the error of its own parse or of the server's check. */
function JsonField({ name, label, description }: { name: 'mcp_config'; label: string; description: string }) {
  const { field, fieldState } = useController<TeamDefaultsValues, 'mcp_config'>({ name });
  return (
    <Textarea
      {...field}
      label={label}
      description={description}
      error={fieldState.error?.message}
      autosize
      minRows={4}
      maxRows={16}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
    />
  );
}
