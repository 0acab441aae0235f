import type { I18n } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconPencil, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { CopyValue } from '../../../components/copy-value';
import { ShortId } from '../../../components/short-id';
import { RelativeTime } from '../../../components/relative-time';
import { SandboxStatusBadge } from '../../../components/sandbox-status-badge';
import type { AppConversation, Metrics } from '../../../contract/conversations';
import { DEMO_MODEL } from '../../../contract/demo-model';
import { isProvider, PROVIDER_NAMES } from '../../../contract/secrets';
import { ExecutionBadge } from '../shared/execution-badge';

export interface ConversationViewProps {
  conversation: AppConversation;
  renaming: boolean;
  onRename: (title: string) => void;
  /** Absent when the server cannot archive (OpenHands): no Archive button then. */
  onArchive?: (archived: boolean) => void;
  /** `pause` or `resume` its sandbox; `undefined` while its sandbox can do neither. */
  sandboxAction: 'pause' | 'resume' | undefined;
  sandboxActionPending: boolean;
  onSandboxAction: (action: 'pause' | 'resume') => void;
  onDelete: () => void;
  /** Titles of its parent and sub-conversations, by id, as far as known yet. */
  relatedTitles?: ReadonlyMap<string, string | null>;
  /** Whose it is, when it is not the signed-in user's. */
  ownerName?: string;
  /** The agent's part (events and controls), between the header and the details. */
  children?: ReactNode;
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
  const { t } = useLingui();
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        <ActionIcon variant="subtle" aria-label={t`Rename`} onClick={() => setDraft(title)} loading={pending}>
          <IconPencil size={18} />
        </ActionIcon>
      </Group>
    );
  }
  const trimmed = draft.trim();
  const error = trimmed === '' ? t`A title cannot be empty` : trimmed.length > 200 ? t`At most 200 characters` : undefined;
  const save = () => {
    if (error) return;
    if (trimmed !== title) onRename(trimmed);
    setDraft(null);
  };
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <TextInput
        aria-label={t`Title`}
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
      <ActionIcon aria-label={t`Save title`} onClick={save} disabled={Boolean(error)} size="lg">
        <IconCheck size={18} />
      </ActionIcon>
      <ActionIcon aria-label={t`Cancel renaming`} variant="default" onClick={() => setDraft(null)} size="lg">
        <IconX size={18} />
      </ActionIcon>
    </Group>
  );
}

/** US dollars, with four decimals below one (an LLM call costs fractions of a cent). */
const dollars = (amount: number, i18n: I18n) => {
  const digits = amount < 1 ? 4 : 2;
  return i18n.number(amount, { style: 'currency', currency: 'USD', minimumFractionDigits: digits, maximumFractionDigits: digits });
};

/** What it cost so far, against its budget; a model without a known price has no known cost, and no budget can apply to it. */
function Cost({ metrics }: { metrics: Metrics }) {
  const { t, i18n } = useLingui();
  const budget = metrics.max_budget_per_task === null ? null : dollars(metrics.max_budget_per_task, i18n);
  if (!metrics.cost_known) {
    return (
      <Stack gap={2}>
        <Text size="sm">
          <Trans>unknown</Trans>
        </Text>
        <Text size="xs" c="dimmed">
          {budget === null ? t`This model's price is unknown.` : t`This model's price is unknown, so the ${budget} budget can't apply.`}
        </Text>
      </Stack>
    );
  }
  return (
    <Group gap={6}>
      <Text size="sm">{dollars(metrics.accumulated_cost, i18n)}</Text>
      {budget !== null && (
        <Text size="sm" c="dimmed">
          <Trans>of a {budget} budget</Trans>
        </Text>
      )}
    </Group>
  );
}

function Model({ model }: { model: string | null }) {
  if (model !== DEMO_MODEL) return text(model);
  return (
    <Stack gap={2}>
      <Text size="sm">{model}</Text>
      <Text size="xs" c="dimmed">
        <Trans>The demo model: a scripted session, no LLM.</Trans>
      </Text>
    </Stack>
  );
}

/** A status badge with what it is the status of: the sandbox's and the agent's differ. */
function LabelledStatus({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Group>
  );
}

/** A link to another conversation, by its title once known. */
function ConversationLink({ id, title }: { id: string; title: string | null | undefined }) {
  return (
    <Anchor component={Link} to={`/conversations/${encodeURIComponent(id)}`} size="sm" ff={title ? undefined : 'monospace'}>
      {title ?? id.slice(0, 12)}
    </Anchor>
  );
}

/** Everything known about one conversation, with what can be done to it. */
export function ConversationView({ conversation: c, ...props }: ConversationViewProps) {
  const { t, i18n } = useLingui();
  const tokens = c.metrics?.accumulated_token_usage;
  const tokensIn = tokens && i18n.number(tokens.prompt_tokens);
  const tokensOut = tokens && i18n.number(tokens.completion_tokens);
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={6}>
          <Anchor component={Link} to="/conversations" size="sm">
            <Trans>← Conversations</Trans>
          </Anchor>
          <EditableTitle title={c.title ?? c.id} pending={props.renaming} onRename={props.onRename} />
          <Group gap="xs">
            <LabelledStatus label={t`Sandbox`}>
              <SandboxStatusBadge status={c.sandbox_status} />
            </LabelledStatus>
            {c.execution_status && (
              <LabelledStatus label={t`Agent`}>
                <ExecutionBadge status={c.execution_status} />
              </LabelledStatus>
            )}
            {c.llm_model === DEMO_MODEL && (
              <Badge variant="light" color="grape">
                <Trans>Demo model</Trans>
              </Badge>
            )}
            {c.archived && (
              <Badge variant="light" color="gray">
                <Trans>Archived</Trans>
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          {props.sandboxAction && (
            <Button variant="default" loading={props.sandboxActionPending} onClick={() => props.onSandboxAction(props.sandboxAction!)}>
              {props.sandboxAction === 'pause' ? t`Pause sandbox` : t`Resume sandbox`}
            </Button>
          )}
          {props.onArchive && (
            <Button variant="default" onClick={() => props.onArchive?.(!c.archived)}>
              {c.archived ? t`Unarchive` : t`Archive`}
            </Button>
          )}
          <Button color="red" variant="light" onClick={props.onDelete}>
            <Trans>Delete</Trans>
          </Button>
        </Group>
      </Group>

      {props.children}

      <Paper withBorder p="md" radius="md" component="section" aria-label={t`Details`}>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md" verticalSpacing="md">
          <Field label={t`Conversation id`}>
            <CopyValue value={c.id} label={t`conversation id`} maxWidth={260} />
          </Field>
          {props.ownerName !== undefined && <Field label={t`Owner`}>{text(props.ownerName)}</Field>}
          <Field label={t`Sandbox`}>
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/sandboxes?logs=${encodeURIComponent(c.sandbox_id)}`} size="sm" ff="monospace">
                <ShortId id={c.sandbox_id} />
              </Anchor>
            </Group>
          </Field>
          <Field label={t`Agent server`}>
            {c.conversation_url ? <CopyValue value={c.conversation_url} label={t`conversation URL`} maxWidth={260} /> : none}
          </Field>
          {c.parent_conversation_id && (
            <Field label={t`Part of`}>
              <ConversationLink id={c.parent_conversation_id} title={props.relatedTitles?.get(c.parent_conversation_id)} />
            </Field>
          )}
          {c.sub_conversation_ids.length > 0 && (
            <Field label={t`Sub-conversations`}>
              <Stack gap={2}>
                {c.sub_conversation_ids.map((id) => (
                  <ConversationLink key={id} id={id} title={props.relatedTitles?.get(id)} />
                ))}
              </Stack>
            </Field>
          )}
          <Field label={t`Repository`}>{text(c.selected_repository)}</Field>
          <Field label={t`Branch`}>{text(c.selected_branch)}</Field>
          <Field label={t`Git provider`}>
            {text(c.git_provider && isProvider(c.git_provider) ? PROVIDER_NAMES[c.git_provider] : c.git_provider)}
          </Field>
          <Field label={t`Trigger`}>{text(c.trigger)}</Field>
          <Field label={t`LLM model`}>
            <Model model={c.llm_model} />
          </Field>
          <Field label={t`Skills`}>{text(c.skills.length > 0 ? c.skills.join(', ') : null)}</Field>
          <Field label={t`Cost`}>{c.metrics ? <Cost metrics={c.metrics} /> : none}</Field>
          <Field label={t`Tokens`}>
            {tokens ? (
              <Text size="sm">
                <Trans>
                  {tokensIn} in, {tokensOut} out
                </Trans>
              </Text>
            ) : (
              none
            )}
          </Field>
          <Field label={t`Created`}>
            <RelativeTime iso={c.created_at} />
          </Field>
          <Field label={t`Updated`}>
            <RelativeTime iso={c.updated_at} />
          </Field>
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
