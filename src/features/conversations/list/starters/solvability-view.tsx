import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { describeError } from '../../../../api/errors';
import { ErrorAlert } from '../../../../components/error-alert';
import type { Difficulty, SolvabilityEstimate, SuggestedTask } from '../../../../contract/suggested-tasks';

/** OpenHands' difficulty levels, in words. */
const VERDICTS: Record<Difficulty, { words: MessageDescriptor; color: string }> = {
  EASY: { words: msg`Likely solvable`, color: 'green' },
  MEDIUM: { words: msg`May be solvable`, color: 'yellow' },
  HARD: { words: msg`Hard to solve`, color: 'red' },
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
  const { t, i18n } = useLingui();
  const issue = estimate?.task ?? task;
  const branch = issue?.branch;
  let verdict;
  if (estimate) {
    const { words, color } = VERDICTS[estimate.difficulty];
    const { difficulty, model } = estimate;
    const score = i18n.number(estimate.score, { style: 'percent' });
    verdict = (
      <Stack gap="sm" aria-label={t`Solvability estimate`} role="region">
        <Group gap="xs">
          <Badge color={color} variant="light" size="lg">
            {i18n._(words)}
          </Badge>
          <Text size="sm" c="dimmed">
            <Trans>
              Solvability {difficulty} · {score}
            </Trans>
          </Text>
        </Group>
        <Text size="sm">{estimate.summary}</Text>
        <FeedbackList title={t`What would make it easier`} lines={estimate.actionable_feedback} />
        <FeedbackList title={t`What already helps`} lines={estimate.positive_feedback} />
        <Text size="xs" c="dimmed">
          <Trans>Estimated by {model} from the issue's text; the agent may do better or worse.</Trans>
        </Text>
      </Stack>
    );
  } else if (error) {
    verdict = <ErrorAlert title={t`Could not estimate solvability`}>{describeError(error)}</ErrorAlert>;
  } else {
    verdict = (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">
          <Trans>Your LLM is reading the issue…</Trans>
        </Text>
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
            {branch ? t` · starts on ${branch}` : ''}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {issueUrl}
        </Text>
      )}
      {verdict}
      {startError !== undefined && <ErrorAlert title={t`Not started`}>{describeError(startError)}</ErrorAlert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          <Trans>Cancel</Trans>
        </Button>
        <Button onClick={() => issue && onStart(issue)} disabled={!issue} loading={starting}>
          <Trans>Start conversation</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
