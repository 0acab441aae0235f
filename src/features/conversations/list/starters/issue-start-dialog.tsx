import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '../../../../components/dialog';
import type { SolvabilityRequestInput, SuggestedTask } from '../../../../contract/suggested-tasks';
import { solvabilityQuery } from '../../../../queries/suggested-tasks';
import { SolvabilityView } from './solvability-view';

/** The issue asked about: a suggested task, or an address pasted. */
export type AskedIssue = { task: SuggestedTask } | { url: string };

const requestFor = (asked: AskedIssue): SolvabilityRequestInput =>
  'task' in asked
    ? { git_provider: asked.task.git_provider, repo: asked.task.repo, issue_number: asked.task.issue_number }
    : { issue_url: asked.url };

/** Before a conversation starts on an issue: the user's LLM's estimate of whether the agent can solve it. */
export function IssueStartDialog({
  asked,
  onClose,
  onStart,
  starting,
  startError,
}: {
  asked: AskedIssue;
  onClose: () => void;
  onStart: (task: SuggestedTask) => void;
  starting: boolean;
  startError?: unknown;
}) {
  const { t } = useLingui();
  const estimate = useQuery(solvabilityQuery(requestFor(asked)));
  return (
    <Dialog opened onClose={onClose} title={t`Start from an issue`} size="lg">
      <SolvabilityView
        task={'task' in asked ? asked.task : undefined}
        issueUrl={'url' in asked ? asked.url : undefined}
        estimate={estimate.data}
        error={estimate.error}
        onStart={onStart}
        onCancel={onClose}
        starting={starting}
        startError={startError}
      />
    </Dialog>
  );
}
