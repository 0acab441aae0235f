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

const STATUS: Record<ActionStatus, { label: string; color: string }> = {
  waiting: { label: 'Waiting for approval', color: 'orange' },
  running: { label: 'Running', color: 'blue' },
  pending: { label: 'Not run yet', color: 'gray' },
  done: { label: 'Done', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  interrupted: { label: 'Interrupted', color: 'orange' },
  rejected: { label: 'Rejected', color: 'gray' },
  error: { label: 'Error', color: 'red' },
};

function statusLabel(status: ActionStatus, outcome: ActionOutcome | null) {
  const { label } = STATUS[status];
  return outcome?.kind === 'observation' && outcome.exitCode !== null ? `${label} · exit code ${outcome.exitCode}` : label;
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
  if (images.length === 0) return null;
  return (
    <Group gap="xs" mt={6}>
      {images.map((url, index) => (
        <Image key={index} src={url} alt={`Image ${index + 1} of the message`} h={120} w="auto" maw={240} fit="contain" radius="sm" />
      ))}
    </Group>
  );
}

function UserBubble({ text, images }: { text: string; images: readonly string[] }) {
  return (
    <Group justify="flex-end" role="group" aria-label="Your message">
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
        border: isError ? '1px solid var(--mantine-color-red-6)' : undefined,
      }}
    >
      {text || '(no output)'}
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
  if (outcome.kind === 'rejected')
    return (
      <Text size="sm" c="dimmed">
        Rejected: {outcome.reason}
      </Text>
    );
  if (outcome.kind === 'error')
    return (
      <Text size="sm" c="red">
        {outcome.error}
      </Text>
    );
  const output = (
    <Fold id={id} label={outcome.isError ? 'Output (error)' : 'Output'} expanded={expanded} onToggle={onToggle}>
      <Output text={outcome.output} isError={outcome.isError} />
    </Fold>
  );
  if (!outcome.edit) return output;
  return (
    <Stack gap={6}>
      <Box mah={DIFF_MAX_HEIGHT} style={{ overflow: 'auto' }}>
        <Suspense fallback={<Loader size="xs" aria-label="Loading the diff" />}>
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
  const lines = text.replace(/\n$/, '').split('\n');
  const earlier = lines.length - LIVE_LINES;
  return (
    <Stack gap={2} role="log" aria-label="Live output">
      {earlier > 0 && (
        <Text size="xs" c="dimmed">
          {earlier} earlier {earlier === 1 ? 'line' : 'lines'}: all of it shows once the command ends
        </Text>
      )}
      <Output text={lines.slice(-LIVE_LINES).join('\n')} isError={false} />
    </Stack>
  );
}

const TOOL_ICONS = { terminal: IconTerminal2, file: IconFileText, mcp: IconPlug, other: IconTool };
const TOOL_NAMES = { terminal: 'Terminal', file: 'File editor', mcp: 'MCP tool', other: 'Tool' };

function ActionRow({ item, expanded, onToggle }: RowProps & { item: Extract<TimelineItem, { type: 'action' }> }) {
  const summary = summarizeAction(item.action, item.server);
  const Icon = TOOL_ICONS[summary.tool];
  const thought = item.action.thought
    .map((part) => part.text)
    .join('\n')
    .trim();
  const { color } = STATUS[item.status];
  return (
    <Paper
      withBorder
      radius="md"
      px="md"
      py="xs"
      ml={28}
      role="group"
      aria-label={`Action: ${summary.text}`}
      data-action-status={item.status}
    >
      <Stack gap={6}>
        {thought && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
            {thought}
          </Text>
        )}
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Icon size={18} aria-label={TOOL_NAMES[summary.tool]} style={{ flex: 'none' }} />
            <Text size="sm" ff="monospace" truncate="end" title={summary.text}>
              {summary.tool === 'terminal' ? `$ ${summary.text}` : summary.text}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
            <RiskBadge risk={item.action.security_risk} />
            <Badge variant="light" color={color} leftSection={item.status === 'running' ? <Loader size={10} color={color} /> : undefined}>
              {statusLabel(item.status, item.outcome)}
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
  switch (item.type) {
    case 'message':
      return item.role === 'user' ? (
        <UserBubble text={item.text} images={item.images} />
      ) : (
        <AgentBubble label="Agent's message">
          <MessageText text={item.text} />
        </AgentBubble>
      );
    case 'streaming':
      return (
        <AgentBubble label="The agent is writing">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {item.text}
          </Text>
          <Loader type="dots" size="xs" mt={4} aria-hidden />
        </AgentBubble>
      );
    case 'finish':
      return (
        <AgentBubble label="Agent's final message">
          <Badge variant="light" color="teal" size="sm" mb={6}>
            Finished
          </Badge>
          <MessageText text={item.text} />
        </AgentBubble>
      );
    case 'action':
      return <ActionRow item={item} expanded={expanded} onToggle={onToggle} />;
    case 'observation':
      return (
        <Paper withBorder radius="md" px="md" py="xs" ml={28} role="group" aria-label={`Result of ${item.toolName}`}>
          <OutcomeDetail id={item.key} outcome={item.outcome} expanded={expanded} onToggle={onToggle} />
        </Paper>
      );
    case 'error':
      return (
        <Alert color="red" variant="light" icon={<IconAlertTriangle />} title={item.title} role="alert" data-code={item.code ?? undefined}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {item.detail}
          </Text>
          {item.code && NEEDS_SETTINGS.has(item.code) && (
            <Anchor component={Link} to={SETTINGS_LLM} size="sm">
              Settings › LLM
            </Anchor>
          )}
        </Alert>
      );
    case 'paused':
      return (
        <Group justify="center" gap={6} c="dimmed" role="note">
          <IconPlayerPause size={16} aria-hidden />
          <Text size="sm">{item.bySandbox ? 'Paused because its sandbox was paused' : 'Paused'}</Text>
        </Group>
      );
    case 'system-prompt':
      return (
        <Box c="dimmed">
          <Fold id={item.key} label={`System prompt · ${item.tools.length} tools`} expanded={expanded} onToggle={onToggle}>
            <Output text={item.text} isError={false} />
          </Fold>
          <Text size="xs">
            Tools: {item.tools.map((tool) => (tool.server ? `${tool.name} (MCP server ${tool.server})` : tool.name)).join(', ')}
          </Text>
        </Box>
      );
    case 'condensation':
      return (
        <Stack gap={2} align="center" c="dimmed" role="note" aria-label="Earlier history summarised">
          <Text size="sm">Earlier history summarised for the model ({item.forgotten === 1 ? '1 event' : `${item.forgotten} events`})</Text>
          {item.summary && (
            <Fold id={item.key} label="Summary" expanded={expanded} onToggle={onToggle}>
              <Output text={item.summary} isError={false} />
            </Fold>
          )}
        </Stack>
      );
    case 'continued':
      return (
        <Stack gap={2} align="center" role="note" aria-label="Continued in a new sandbox">
          <Text size="sm" fw={600}>
            Continued in a new sandbox
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
