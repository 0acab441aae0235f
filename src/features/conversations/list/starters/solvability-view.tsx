import { Anchor, Badge, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { describeError } from '../../../../api/errors';
import { ErrorAlert } from '../../../../components/error-alert';
import type { Difficulty, SolvabilityEstimate, SuggestedTask } from '../../../../contract/suggested-tasks';

/** OpenHands' difficulty levels, in words. */
const VERDICTS: Record<Difficulty, { words: string; color: string }> = {
  EASY: { words: 'Likely solvable', color: 'green' },
  MEDIUM: { words: 'May be solvable', color: 'yellow' },
  HARD: { words: 'Hard to solve', color: 'red' },
};

export interface SolvabilityViewProps {
  /** The issue, when known before the estimate (a suggested task); a pasted address is known by its estimate. */
  task: SuggestedTask | undefined;
  /** What was pasted, while the issue is not known yet. */
  issueUrl?: string;
  estimate: SolvabilityEstimate | undefined;
  /** Why there is no estimate, if it failed. */
  error: unknown;
  onStart: (task: SuggestedTask) => void;
  onCancel: () => void;
  starting: boolean;
  /** Why the start was refused, if it was. */
  startError?: unknown;
}

function FeedbackList({ title, lines }: { title: string; lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <List size="sm" spacing={2}>
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** The estimate of an issue, then the choice to start on it or not. */
export function SolvabilityView({ task, issueUrl, estimate, error, onStart, onCancel, starting, startError }: SolvabilityViewProps) {
  const issue = estimate?.task ?? task;
  let verdict;
  if (estimate) {
    const { words, color } = VERDICTS[estimate.difficulty];
    verdict = (
      <Stack gap="sm" aria-label="Solvability estimate" role="region">
        <Group gap="xs">
          <Badge color={color} variant="light" size="lg">
            {words}
          </Badge>
          <Text size="sm" c="dimmed">
            Solvability {estimate.difficulty} · {Math.round(estimate.score * 100)}%
          </Text>
        </Group>
        <Text size="sm">{estimate.summary}</Text>
        <FeedbackList title="What would make it easier" lines={estimate.actionable_feedback} />
        <FeedbackList title="What already helps" lines={estimate.positive_feedback} />
        <Text size="xs" c="dimmed">
          Estimated by {estimate.model} from the issue's text; the agent may do better or worse.
        </Text>
      </Stack>
    );
  } else if (error) {
    verdict = <ErrorAlert title="Could not estimate solvability">{describeError(error)}</ErrorAlert>;
  } else {
    verdict = (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">Your LLM is reading the issue…</Text>
      </Group>
    );
  }
  return (
    <Stack>
      {issue ? (
        <Stack gap={2}>
          <Text fw={600}>
            {issue.url ? (
              <Anchor href={issue.url} target="_blank" rel="noreferrer" inherit>
                #{issue.issue_number} {issue.title}
              </Anchor>
            ) : (
              `#${issue.issue_number} ${issue.title}`
            )}
          </Text>
          <Text size="sm" c="dimmed">
            {issue.repo}
            {issue.branch ? ` · starts on ${issue.branch}` : ''}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {issueUrl}
        </Text>
      )}
      {verdict}
      {startError !== undefined && <ErrorAlert title="Not started">{describeError(startError)}</ErrorAlert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Cancel
        </Button>
        <Button onClick={() => issue && onStart(issue)} disabled={!issue} loading={starting}>
          Start conversation
        </Button>
      </Group>
    </Stack>
  );
}
