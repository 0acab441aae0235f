import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { LoadError } from '../../../../components/load-error';
import { LoadingSkeleton } from '../../../../components/query-content';
import { SectionHeader } from '../../../../components/section-header';
import { PROVIDER_NAMES } from '../../../../contract/secrets';
import type { SuggestedTask } from '../../../../contract/suggested-tasks';
import { TASK_LABELS, taskKey } from './task-start';

/** How many tasks show before "Show all". */
export const SHOWN_AT_FIRST = 5;

export interface SuggestedTasksViewProps {
  /** `undefined` while they load. */
  tasks: SuggestedTask[] | undefined;
  error: unknown;
  onRetry: () => void;
  onStart: (task: SuggestedTask) => void;
  /** The task whose conversation is starting (`taskKey`): it waits, the others cannot start meanwhile. */
  starting?: string;
  /** An issue's solvability is estimated before it starts: its button opens that first. */
  estimateIssues?: boolean;
}

/** The tasks grouped by repository, in the order they came. */
function byRepository(tasks: SuggestedTask[]): [string, SuggestedTask[]][] {
  const groups = new Map<string, SuggestedTask[]>();
  for (const task of tasks) groups.set(task.repo, [...(groups.get(task.repo) ?? []), task]);
  return [...groups];
}

function TaskRow({
  task,
  onStart,
  starting,
  estimate,
}: {
  task: SuggestedTask;
  onStart: () => void;
  starting?: string;
  estimate: boolean;
}) {
  const { t, i18n } = useLingui();
  const key = taskKey(task);
  const provider = PROVIDER_NAMES[task.git_provider];
  const { issue_number: number, branch } = task;
  const where = branch ? t`#${number} · on ${branch}` : `#${number}`;
  return (
    <Group component="li" gap="xs" wrap="nowrap" align="center">
      <Button
        variant="default"
        fullWidth
        justify="flex-start"
        h="auto"
        py={6}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
        onClick={onStart}
        loading={starting === key}
        disabled={starting !== undefined && starting !== key}
        aria-haspopup={estimate && task.task_type === 'OPEN_ISSUE' ? 'dialog' : undefined}
      >
        <Stack gap={0} component="span">
          <Text component="span" size="sm" fw={600}>
            {i18n._(TASK_LABELS[task.task_type])}: {task.title}
          </Text>
          <Text component="span" size="xs" c="dimmed">
            {where}
          </Text>
        </Stack>
      </Button>
      {task.url && (
        <ActionIcon
          component="a"
          href={task.url}
          target="_blank"
          rel="noreferrer"
          variant="subtle"
          color="gray"
          aria-label={t`Open #${number} on ${provider}`}
        >
          <IconExternalLink size={16} />
        </ActionIcon>
      )}
    </Group>
  );
}

/** Tasks from the user's repositories, grouped by repository: one click starts a conversation that does one. */
export function SuggestedTasksView({ tasks, error, onRetry, onStart, starting, estimateIssues = false }: SuggestedTasksViewProps) {
  const { t } = useLingui();
  const [showAll, setShowAll] = useState(false);
  let content;
  if (tasks === undefined) {
    content = error ? (
      <LoadError what={t`suggested tasks`} error={error} onRetry={onRetry} />
    ) : (
      <LoadingSkeleton what={t`suggested tasks`} height={72} />
    );
  } else if (tasks.length === 0) {
    content = (
      <Text size="sm" c="dimmed">
        <Trans>
          Nothing needs you now: none of your open pull requests has merge conflicts, failing checks or unresolved comments, and no open
          issue is assigned to you.
        </Trans>
      </Text>
    );
  } else {
    const shown = showAll ? tasks : tasks.slice(0, SHOWN_AT_FIRST);
    const count = tasks.length;
    content = (
      <Stack gap="sm">
        {byRepository(shown).map(([repo, group]) => (
          <Stack key={repo} gap={6}>
            <Text component="h3" size="sm" fw={600} m={0}>
              {repo}
            </Text>
            <Stack component="ul" gap={6} m={0} p={0} style={{ listStyle: 'none' }}>
              {group.map((task) => (
                <TaskRow key={taskKey(task)} task={task} onStart={() => onStart(task)} starting={starting} estimate={estimateIssues} />
              ))}
            </Stack>
          </Stack>
        ))}
        {tasks.length > SHOWN_AT_FIRST && (
          <Group>
            <Button variant="subtle" size="xs" onClick={() => setShowAll(!showAll)} aria-expanded={showAll}>
              {showAll ? t`Show fewer` : t`Show all ${count} tasks`}
            </Button>
          </Group>
        )}
      </Stack>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="suggested-tasks-heading">
      <SectionHeader
        id="suggested-tasks-heading"
        title={t`Suggested tasks`}
        description={t`From your repositories: pull requests that need work and issues assigned to you. One click starts a conversation.`}
        size="h4"
      />
      {content}
    </Paper>
  );
}
