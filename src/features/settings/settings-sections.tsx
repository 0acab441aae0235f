import { Paper, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { NumberField, SelectField, SuggestField, SwitchField, TextField } from '../../components/form/fields';
import { SecretField } from '../../components/form/secret-field';
import { SectionHeader } from '../../components/section-header';
import type { SettingsResponse } from '../../contract/settings';
import type { SettingsFormValues } from './settings-form';
import { AGENT_SUGGESTIONS, LANGUAGES, LLM_MODEL_SUGGESTIONS, SECURITY_ANALYZER_SUGGESTIONS } from './suggestions';

export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Paper component="section" withBorder p="lg" radius="md" aria-labelledby={`${id}-title`} id={id}>
      <Stack gap="md">
        <SectionHeader id={`${id}-title`} title={title} description={description} size="h4" />
        {children}
      </Stack>
    </Paper>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="md">
      {children}
    </SimpleGrid>
  );
}

type Stored = Pick<SettingsResponse, 'llm_api_key_set' | 'search_api_key_set' | 'sandbox_api_key_set'> | null;

export function LlmSection({ stored }: { stored: Stored }) {
  return (
    <SettingsSection id="llm" title="LLM" description="The model the agent thinks with and how to reach it.">
      <Fields>
        <SuggestField<SettingsFormValues>
          name="llm_model"
          label="LLM model"
          description="provider/model, as LiteLLM names it"
          placeholder="anthropic/claude-sonnet-4-5-20250929"
          suggestions={LLM_MODEL_SUGGESTIONS}
        />
        <TextField<SettingsFormValues>
          name="llm_base_url"
          label="LLM base URL"
          type="url"
          description="Leave empty for the provider's own endpoint"
          placeholder="https://api.example.com/v1"
        />
        <SecretField<SettingsFormValues> name="llm_api_key" label="LLM API key" isSet={stored?.llm_api_key_set ?? false} />
        <NumberField<SettingsFormValues>
          name="max_budget_per_task"
          label="Max budget per task"
          description="In US dollars; empty for no limit"
          min={0}
          step="any"
          unit="$"
        />
      </Fields>
    </SettingsSection>
  );
}

export function AgentSection() {
  return (
    <SettingsSection id="agent" title="Agent" description="How the agent works through a task.">
      <Fields>
        <SuggestField<SettingsFormValues> name="agent" label="Agent" placeholder="CodeActAgent" suggestions={AGENT_SUGGESTIONS} />
        <NumberField<SettingsFormValues>
          name="max_iterations"
          label="Max iterations"
          description="Steps before the agent stops; empty for the server default"
          min={1}
          step={1}
        />
        <SuggestField<SettingsFormValues>
          name="security_analyzer"
          label="Security analyzer"
          description="Rates risky actions when confirmation mode is on"
          placeholder="llm"
          suggestions={SECURITY_ANALYZER_SUGGESTIONS}
        />
        <NumberField<SettingsFormValues>
          name="condenser_max_size"
          label="Condenser max size"
          description="Events kept before the history is condensed (at least 20)"
          min={20}
          step={1}
        />
      </Fields>
      <Stack gap="sm">
        <SwitchField<SettingsFormValues>
          name="confirmation_mode"
          label="Confirmation mode"
          description="Ask before the agent runs an action"
        />
        <SwitchField<SettingsFormValues>
          name="enable_default_condenser"
          label="Default condenser"
          description="Summarise long histories to stay within the context window"
        />
        <SwitchField<SettingsFormValues>
          name="v1_enabled"
          label="V1 conversations"
          description="Run new conversations on the V1 agent server"
        />
      </Stack>
    </SettingsSection>
  );
}

export function SandboxSection({ stored }: { stored: Stored }) {
  return (
    <SettingsSection id="sandbox" title="Sandbox" description="Where the agent's commands run.">
      <Fields>
        <TextField<SettingsFormValues>
          name="sandbox_base_container_image"
          label="Sandbox base image"
          placeholder="nikolaik/python-nodejs:python3.12-nodejs22"
        />
        <TextField<SettingsFormValues>
          name="sandbox_runtime_container_image"
          label="Sandbox runtime image"
          placeholder="ghcr.io/openhands/runtime:latest"
        />
        <NumberField<SettingsFormValues>
          name="remote_runtime_resource_factor"
          label="Remote runtime resource factor"
          description="Multiplies CPU and memory of remote sandboxes"
          min={1}
          step={1}
        />
        <SecretField<SettingsFormValues>
          name="sandbox_api_key"
          label="Sandbox API key"
          isSet={stored ? stored.sandbox_api_key_set : false}
        />
      </Fields>
    </SettingsSection>
  );
}

export function GitIdentitySection() {
  return (
    <SettingsSection id="git" title="Git identity" description="The author of the agent's commits.">
      <Fields>
        <TextField<SettingsFormValues> name="git_user_name" label="Git user name" placeholder="openhands" autoComplete="name" />
        <TextField<SettingsFormValues>
          name="git_user_email"
          label="Git user email"
          type="email"
          placeholder="openhands@all-hands.dev"
          autoComplete="email"
        />
      </Fields>
    </SettingsSection>
  );
}

export function SearchSection({ stored }: { stored: Stored }) {
  return (
    <SettingsSection id="search" title="Search" description="Web search for the agent (Tavily).">
      <Fields>
        <SecretField<SettingsFormValues> name="search_api_key" label="Search API key" isSet={stored?.search_api_key_set ?? false} />
      </Fields>
    </SettingsSection>
  );
}

export function PreferencesSection() {
  return (
    <SettingsSection id="preferences" title="Preferences">
      <Fields>
        <SelectField<SettingsFormValues> name="language" label="Language" placeholder="Server default" options={LANGUAGES} />
      </Fields>
      <Stack gap="sm">
        <SwitchField<SettingsFormValues>
          name="enable_sound_notifications"
          label="Sound notifications"
          description="Play a sound when the agent needs you"
        />
        <SwitchField<SettingsFormValues>
          name="enable_proactive_conversation_starters"
          label="Proactive conversation starters"
          description="Suggest tasks for your repositories"
        />
        <SwitchField<SettingsFormValues>
          name="enable_solvability_analysis"
          label="Solvability analysis"
          description="Estimate whether an issue can be solved before starting"
        />
        <SwitchField<SettingsFormValues>
          name="user_consents_to_analytics"
          label="Analytics consent"
          description="Share anonymous usage data"
        />
      </Stack>
    </SettingsSection>
  );
}

export function AccountSection() {
  return (
    <SettingsSection id="account" title="Account">
      <Fields>
        <TextField<SettingsFormValues> name="email" label="Email" type="email" autoComplete="email" placeholder="you@example.com" />
      </Fields>
      <SwitchField<SettingsFormValues> name="email_verified" label="Email verified" />
    </SettingsSection>
  );
}
