import { ActionIcon, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { CopyValue } from '../../components/copy-value';
import { RelativeTime } from '../../components/relative-time';
import { SandboxStatusBadge } from '../../components/sandbox-status-badge';
import type { AppConversation } from '../../contract/conversations';
import { isProvider, PROVIDER_NAMES } from '../../contract/secrets';
import { ExecutionBadge } from './execution-badge';

export interface ConversationViewProps {
  conversation: AppConversation;
  renaming: boolean;
  onRename: (title: string) => void;
  onArchive: (archived: boolean) => void;
  /** `pause` or `resume` its sandbox; `undefined` while its sandbox can do neither. */
  sandboxAction: 'pause' | 'resume' | undefined;
  sandboxActionPending: boolean;
  onSandboxAction: (action: 'pause' | 'resume') => void;
  onDelete: () => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

const none = (
  <Text size="sm" c="dimmed">
    –
  </Text>
);
const text = (value: string | null) => (value ? <Text size="sm">{value}</Text> : none);

/** The title, which a click turns into a field: Enter saves, Escape leaves it as it was. */
function EditableTitle({ title, pending, onRename }: { title: string; pending: boolean; onRename: (title: string) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        <ActionIcon variant="subtle" aria-label="Rename" onClick={() => setDraft(title)} loading={pending}>
          <IconPencil size={18} />
        </ActionIcon>
      </Group>
    );
  }
  const trimmed = draft.trim();
  const error = trimmed === '' ? 'A title cannot be empty' : trimmed.length > 200 ? 'At most 200 characters' : undefined;
  const save = () => {
    if (error) return;
    if (trimmed !== title) onRename(trimmed);
    setDraft(null);
  };
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <TextInput
        aria-label="Title"
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') save();
          if (event.key === 'Escape') setDraft(null);
        }}
        error={error}
        autoFocus
        w={420}
      />
      <ActionIcon aria-label="Save title" onClick={save} disabled={Boolean(error)} size="lg">
        <IconCheck size={18} />
      </ActionIcon>
      <ActionIcon aria-label="Cancel renaming" variant="default" onClick={() => setDraft(null)} size="lg">
        <IconX size={18} />
      </ActionIcon>
    </Group>
  );
}

/** Everything known about one conversation, with what can be done to it. */
export function ConversationView({ conversation: c, ...props }: ConversationViewProps) {
  const tokens = c.metrics?.accumulated_token_usage;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={6}>
          <Anchor component={Link} to="/conversations" size="sm">
            ← Conversations
          </Anchor>
          <EditableTitle title={c.title ?? c.id} pending={props.renaming} onRename={props.onRename} />
          <Group gap="xs">
            <SandboxStatusBadge status={c.sandbox_status} />
            <ExecutionBadge status={c.execution_status} />
            {c.archived && (
              <Badge variant="light" color="gray">
                Archived
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          {props.sandboxAction && (
            <Button variant="default" loading={props.sandboxActionPending} onClick={() => props.onSandboxAction(props.sandboxAction!)}>
              {props.sandboxAction === 'pause' ? 'Pause sandbox' : 'Resume sandbox'}
            </Button>
          )}
          <Button variant="default" onClick={() => props.onArchive(!c.archived)}>
            {c.archived ? 'Unarchive' : 'Archive'}
          </Button>
          <Button color="red" variant="light" onClick={props.onDelete}>
            Delete
          </Button>
        </Group>
      </Group>

      <Paper withBorder p="md" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="md">
          <Field label="Conversation id">
            <CopyValue value={c.id} label="conversation id" maxWidth={260} />
          </Field>
          <Field label="Sandbox">
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/sandboxes?logs=${encodeURIComponent(c.sandbox_id)}`} size="sm" ff="monospace">
                {c.sandbox_id.slice(0, 12)}
              </Anchor>
            </Group>
          </Field>
          <Field label="Agent server">
            {c.conversation_url ? <CopyValue value={c.conversation_url} label="conversation URL" maxWidth={260} /> : none}
          </Field>
          <Field label="Repository">{text(c.selected_repository)}</Field>
          <Field label="Branch">{text(c.selected_branch)}</Field>
          <Field label="Git provider">
            {text(c.git_provider && isProvider(c.git_provider) ? PROVIDER_NAMES[c.git_provider] : c.git_provider)}
          </Field>
          <Field label="Trigger">{text(c.trigger)}</Field>
          <Field label="LLM model">{text(c.llm_model)}</Field>
          <Field label="Skills">{text(c.skills.length > 0 ? c.skills.join(', ') : null)}</Field>
          <Field label="Cost">{c.metrics ? <Text size="sm">${c.metrics.accumulated_cost.toFixed(4)}</Text> : none}</Field>
          <Field label="Tokens">
            {tokens ? (
              <Text size="sm">
                {tokens.prompt_tokens.toLocaleString()} in, {tokens.completion_tokens.toLocaleString()} out
              </Text>
            ) : (
              none
            )}
          </Field>
          <Field label="Created">
            <RelativeTime iso={c.created_at} />
          </Field>
          <Field label="Updated">
            <RelativeTime iso={c.updated_at} />
          </Field>
        </SimpleGrid>
      </Paper>
      <Text size="sm" c="dimmed">
        The agent's events will show here once the agent runs (the next step of this console).
      </Text>
    </Stack>
  );
}
