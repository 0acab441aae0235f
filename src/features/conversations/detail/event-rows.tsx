import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Box, Code, Group, Image, Loader, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconChevronRight,
  IconFileText,
  IconPlayerPause,
  IconPlug,
  IconRobot,
  IconTerminal2,
  IconTool,
} from '@tabler/icons-react';
import { lazy, type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { MessageText } from '../../../components/message-text';
import { RiskBadge } from './risk-badge';
import { type ActionOutcome, type ActionStatus, summarizeAction, type TimelineItem } from './timeline';

/** The diff view, with its libraries, comes with the first edit shown. */
const FileDiff = lazy(() => import('../../../components/file-diff'));

/** An edit's diff, at most this high before it scrolls. */
const DIFF_MAX_HEIGHT = 360;

/*
 * One row of a conversation's timeline per kind of item. Rows that fold (output, the system
 * prompt) are passed whether they are open: the timeline keeps that, as rows come and go while
 * it scrolls.
 */

export interface RowProps {
  item: TimelineItem;
  expanded: boolean;
  onToggle: () => void;
}

const STATUS: Record<ActionStatus, { label: MessageDescriptor; color: string }> = {
  waiting: { label: msg`Waiting for approval`, color: 'orange' },
  running: { label: msg`Running`, color: 'blue' },
  pending: { label: msg`Not run yet`, color: 'gray' },
  done: { label: msg`Done`, color: 'teal' },
  failed: { label: msg`Failed`, color: 'red' },
  interrupted: { label: msg`Interrupted`, color: 'orange' },
  rejected: { label: msg`Rejected`, color: 'gray' },
  error: { label: msg`Error`, color: 'red' },
};

function statusLabel(status: ActionStatus, outcome: ActionOutcome | null, i18n: I18n) {
  const label = i18n._(STATUS[status].label);
  if (outcome?.kind !== 'observation' || outcome.exitCode === null) return label;
  const { exitCode } = outcome;
  return i18n._(msg`${label} · exit code ${exitCode}`);
}

function AgentBubble({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap" aria-label={label} role="group">
      <IconRobot size={20} aria-hidden style={{ flex: 'none', marginTop: 8 }} />
      <Paper withBorder radius="md" px="md" py="xs" maw="85%" style={{ minWidth: 0 }}>
        {children}
      </Paper>
    </Group>
  );
}

/** Images of a message, as thumbnails. */
function MessageImages({ images }: { images: readonly string[] }) {
  const { t } = useLingui();
  if (images.length === 0) return null;
  return (
    <Group gap="xs" mt={6}>
      {images.map((url, index) => {
        const number = index + 1;
        return <Image key={index} src={url} alt={t`Image ${number} of the message`} h={120} w="auto" maw={240} fit="contain" radius="sm" />;
      })}
    </Group>
  );
}

function UserBubble({ text, images }: { text: string; images: readonly string[] }) {
  const { t } = useLingui();
  return (
    <Group justify="flex-end" role="group" aria-label={t`Your message`}>
      <Paper radius="md" px="md" py="xs" maw="85%" bg="var(--mantine-color-blue-light)">
        {text && (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
          </Text>
        )}
        <MessageImages images={images} />
      </Paper>
    </Group>
  );
}

/** A fold: its summary is a button that opens or closes what it holds. */
function Fold({
  id,
  label,
  expanded,
  onToggle,
  children,
}: {
  id: string;
  label: string;
  expanded: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const panel = `fold-${id}`;
  return (
    <Stack gap={4}>
      <UnstyledButton onClick={onToggle} aria-expanded={expanded} aria-controls={panel} fz="sm" c="dimmed">
        <Group gap={4}>
          {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
          {label}
        </Group>
      </UnstyledButton>
      {expanded && <div id={panel}>{children}</div>}
    </Stack>
  );
}

function Output({ text, isError }: { text: string; isError: boolean }) {
  return (
    <Code
      block
      data-error={isError || undefined}
      style={{
        maxHeight: 320,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        // eslint-disable-next-line lingui/no-unlocalized-strings -- CSS
        border: isError ? '1px solid var(--mantine-color-red-6)' : undefined,
      }}
    >
      {text || <Trans>(no output)</Trans>}
    </Code>
  );
}

function OutcomeDetail({
  id,
  outcome,
  expanded,
  onToggle,
}: {
  id: string;
  outcome: ActionOutcome;
  expanded: boolean;
  onToggle: () => void;
}) {
  const { t } = useLingui();
  if (outcome.kind === 'rejected') {
    const { reason } = outcome;
    return (
      <Text size="sm" c="dimmed">
        <Trans>Rejected: {reason}</Trans>
      </Text>
    );
  }
  if (outcome.kind === 'error')
    return (
      <Text size="sm" c="red">
        {outcome.error}
      </Text>
    );
  const output = (
    <Fold id={id} label={outcome.isError ? t`Output (error)` : t`Output`} expanded={expanded} onToggle={onToggle}>
      <Output text={outcome.output} isError={outcome.isError} />
    </Fold>
  );
  if (!outcome.edit) return output;
  return (
    <Stack gap={6}>
      <Box mah={DIFF_MAX_HEIGHT} style={{ overflow: 'auto' }}>
        <Suspense fallback={<Loader size="xs" aria-label={t`Loading the diff`} />}>
          <FileDiff {...outcome.edit} layout="unified" />
        </Suspense>
      </Box>
      {output}
    </Stack>
  );
}

/** A running command's output shows its last lines; the whole of it comes with its result. */
const LIVE_LINES = 20;

function LiveOutput({ text }: { text: string }) {
  const { t } = useLingui();
  const lines = text.replace(/\n$/, '').split('\n');
  const earlier = lines.length - LIVE_LINES;
  return (
    <Stack gap={2} role="log" aria-label={t`Live output`}>
      {earlier > 0 && (
        <Text size="xs" c="dimmed">
          {t`${plural(earlier, {
            one: '# earlier line: all of it shows once the command ends',
            other: '# earlier lines: all of it shows once the command ends',
          })}`}
        </Text>
      )}
      <Output text={lines.slice(-LIVE_LINES).join('\n')} isError={false} />
    </Stack>
  );
}

const TOOL_ICONS = { terminal: IconTerminal2, file: IconFileText, mcp: IconPlug, other: IconTool };
const TOOL_NAMES = { terminal: msg`Terminal`, file: msg`File editor`, mcp: msg`MCP tool`, other: msg`Tool` };

function ActionRow({ item, expanded, onToggle }: RowProps & { item: Extract<TimelineItem, { type: 'action' }> }) {
  const { t, i18n } = useLingui();
  const summary = summarizeAction(item.action, (message) => i18n._(message), item.server);
  const { text } = summary;
  const Icon = TOOL_ICONS[summary.tool];
  const thought = item.action.thought
    .map((part) => part.text)
    .join('\n')
    .trim();
  const { color } = STATUS[item.status];
  return (
    <Paper withBorder radius="md" px="md" py="xs" ml={28} role="group" aria-label={t`Action: ${text}`} data-action-status={item.status}>
      <Stack gap={6}>
        {thought && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {thought}
          </Text>
        )}
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Icon size={18} aria-label={i18n._(TOOL_NAMES[summary.tool])} style={{ flex: 'none' }} />
            <Text size="sm" ff="monospace" truncate="end" title={summary.text}>
              {summary.tool === 'terminal' ? `$ ${summary.text}` : summary.text}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
            <RiskBadge risk={item.action.security_risk} />
            <Badge variant="light" color={color} leftSection={item.status === 'running' ? <Loader size={10} color={color} /> : undefined}>
              {statusLabel(item.status, item.outcome, i18n)}
            </Badge>
          </Group>
        </Group>
        {item.liveOutput !== undefined && !item.outcome && <LiveOutput text={item.liveOutput} />}
        {item.outcome && <OutcomeDetail id={item.key} outcome={item.outcome} expanded={expanded} onToggle={onToggle} />}
      </Stack>
    </Paper>
  );
}

const SETTINGS_LLM = '/settings#llm';
const NEEDS_SETTINGS = new Set(['LLM_AUTH', 'NO_MODEL']);

export function TimelineRow({ item, expanded, onToggle }: RowProps) {
  const { t, i18n } = useLingui();
  switch (item.type) {
    case 'message':
      return item.role === 'user' ? (
        <UserBubble text={item.text} images={item.images} />
      ) : (
        <AgentBubble label={t`Agent's message`}>
          <MessageText text={item.text} />
        </AgentBubble>
      );
    case 'streaming':
      return (
        <AgentBubble label={t`The agent is writing`}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {item.text}
          </Text>
          <Loader type="dots" size="xs" mt={4} aria-hidden />
        </AgentBubble>
      );
    case 'finish':
      return (
        <AgentBubble label={t`Agent's final message`}>
          <Badge variant="light" color="teal" size="sm" mb={6}>
            <Trans>Finished</Trans>
          </Badge>
          <MessageText text={item.text} />
        </AgentBubble>
      );
    case 'action':
      return <ActionRow item={item} expanded={expanded} onToggle={onToggle} />;
    case 'observation': {
      const { toolName } = item;
      return (
        <Paper withBorder radius="md" px="md" py="xs" ml={28} role="group" aria-label={t`Result of ${toolName}`}>
          <OutcomeDetail id={item.key} outcome={item.outcome} expanded={expanded} onToggle={onToggle} />
        </Paper>
      );
    }
    case 'error':
      return (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle />}
          title={typeof item.title === 'string' ? item.title : i18n._(item.title)}
          role="alert"
          data-code={item.code ?? undefined}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {item.detail}
          </Text>
          {item.code && NEEDS_SETTINGS.has(item.code) && (
            <Anchor component={Link} to={SETTINGS_LLM} size="sm">
              <Trans>Settings › LLM</Trans>
            </Anchor>
          )}
        </Alert>
      );
    case 'paused':
      return (
        <Group justify="center" gap={6} c="dimmed" role="note">
          <IconPlayerPause size={16} aria-hidden />
          <Text size="sm">{item.bySandbox ? t`Paused because its sandbox was paused` : t`Paused`}</Text>
        </Group>
      );
    case 'system-prompt': {
      const count = item.tools.length;
      // Identifiers: listed as code lists them, in any language.
      const tools = item.tools.map(({ name, server }) => (server ? t`${name} (MCP server ${server})` : name)).join(', ');
      return (
        <Box c="dimmed">
          <Fold
            id={item.key}
            label={t`System prompt · ${plural(count, { one: '# tool', other: '# tools' })}`}
            expanded={expanded}
            onToggle={onToggle}
          >
            <Output text={item.text} isError={false} />
          </Fold>
          <Text size="xs">
            <Trans>Tools: {tools}</Trans>
          </Text>
        </Box>
      );
    }
    case 'condensation': {
      const { forgotten } = item;
      return (
        <Stack gap={2} align="center" c="dimmed" role="note" aria-label={t`Earlier history summarised`}>
          <Text size="sm">{t`Earlier history summarised for the model (${plural(forgotten, { one: '# event', other: '# events' })})`}</Text>
          {item.summary && (
            <Fold id={item.key} label={t`Summary`} expanded={expanded} onToggle={onToggle}>
              <Output text={item.summary} isError={false} />
            </Fold>
          )}
        </Stack>
      );
    }
    case 'continued':
      return (
        <Stack gap={2} align="center" role="note" aria-label={t`Continued in a new sandbox`}>
          <Text size="sm" fw={600}>
            <Trans>Continued in a new sandbox</Trans>
          </Text>
          <Text size="sm" c="dimmed" ta="center" maw={560}>
            {item.detail}
          </Text>
        </Stack>
      );
    case 'other':
      return (
        <Text size="xs" c="dimmed" ta="center">
          {item.kind}
        </Text>
      );
  }
}
