import { Alert, Button, Group, List, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SandboxAction } from '../../api/sandboxes';
import { Dialog } from '../../components/dialog';
import { ShortId, shortId } from '../../components/short-id';
import type { SandboxInfo } from '../../contract/sandboxes';
import { sandboxActionMutation } from '../../queries/sandboxes';
import { ACTION_LABEL, actionFailure, bulkDone, pausedNotice, planBulk } from './actions';
import { namedConversations, type SandboxConversation } from './used-by';

/** What becomes of the conversations the sandboxes serve, as the single action's confirmation says. */
const SERVED_CONVERSATIONS: Record<SandboxAction, string | undefined> = {
  delete: 'Their conversations keep their history and can continue in a new sandbox, without what the workspaces held and was not pushed.',
  pause: 'Their agents stop, a running command is stopped with them, until the sandbox is resumed.',
  resume: undefined,
};

interface Failure {
  id: string;
  reason: string;
}

/**
 * One confirmation for an action on many sandboxes: it applies to the rows in a valid state,
 * says which it skips and shows "3 of 10" while it works. When all went well it closes by itself
 * with a notification; when something failed, or other sandboxes were paused to make room, it
 * stays open with the summary. As the single actions do, it names the conversations each serves.
 */
export function BulkActionDialog({
  action,
  selected,
  servedBy,
  onClose,
}: {
  action: SandboxAction;
  selected: SandboxInfo[];
  /** The conversations a sandbox serves (none when the server does not say). */
  servedBy: (sandbox: SandboxInfo) => readonly SandboxConversation[];
  onClose: (finished: boolean) => void;
}) {
  const [plan] = useState(() => planBulk(action, selected));
  const run = useMutation(sandboxActionMutation(useQueryClient()));
  const [done, setDone] = useState<number | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [pausedOthers, setPausedOthers] = useState<string[]>([]);
  const label = ACTION_LABEL[action];
  const total = plan.apply.length;
  const finished = done === total;

  const start = async () => {
    setDone(0);
    let troubles = 0;
    for (const [index, sandbox] of plan.apply.entries()) {
      try {
        const result = await run.mutateAsync({ action, id: sandbox.id });
        // Resuming more than may run at once pauses others (maybe ones resumed a moment ago).
        if (result.paused_sandbox_ids?.length) {
          troubles++;
          setPausedOthers((list) => [...list, ...result.paused_sandbox_ids!]);
        }
      } catch (error) {
        troubles++;
        setFailures((list) => [...list, { id: sandbox.id, reason: actionFailure(action, error) }]);
      }
      setDone(index + 1);
    }
    if (troubles === 0) {
      const ids = plan.apply.map((sandbox) => shortId(sandbox.id)).join(', ');
      notifications.show({ color: 'teal', title: bulkDone(action, total), message: ids });
      onClose(true);
    }
  };

  const noun = (n: number) => (n === 1 ? '1 sandbox' : `${n} sandboxes`);
  const serving = plan.apply.some((sandbox) => servedBy(sandbox).length > 0);
  const running = done !== null && !finished;
  return (
    <Dialog
      opened
      onClose={() => onClose(finished)}
      title={`${label.verb} ${noun(total)}?`}
      // Not while it works: the summary at the end is the point.
      closeOnClickOutside={!running}
      closeOnEscape={!running}
      withCloseButton={!running}
    >
      <Stack>
        {done === null ? (
          <>
            <Text size="sm" component="div">
              {action === 'delete' ? 'These sandboxes and their files are deleted for good:' : `${label.verb}:`}
              <List size="sm" mt={4}>
                {plan.apply.map((sandbox) => (
                  <List.Item key={sandbox.id}>
                    <ShortId id={sandbox.id} /> ({sandbox.sandbox_spec_id})
                    {servedBy(sandbox).length > 0 && `, which serves ${namedConversations(servedBy(sandbox))}`}
                  </List.Item>
                ))}
              </List>
            </Text>
            {serving && SERVED_CONVERSATIONS[action] && <Text size="sm">{SERVED_CONVERSATIONS[action]}</Text>}
            {plan.skip.length > 0 && (
              <Text size="sm" c="dimmed">
                {noun(plan.skip.length)} of the selection {plan.skip.length === 1 ? 'is' : 'are'} left out:{' '}
                {action === 'resume' ? 'not paused' : 'not running'}.
              </Text>
            )}
          </>
        ) : (
          <>
            <Progress value={total ? (done / total) * 100 : 100} aria-label="Progress" />
            <Text size="sm" role="status">
              {finished ? `${bulkDone(action, total - failures.length)}.` : `${label.doing} ${done} of ${total}`}
            </Text>
            {finished && pausedOthers.length > 0 && (
              <Alert color="yellow" variant="light" role="status">
                {pausedNotice([...new Set(pausedOthers)])}
              </Alert>
            )}
            {finished && failures.length > 0 && (
              <Alert color="red" variant="light" title={`${noun(failures.length)} failed`} role="alert">
                <List size="sm">
                  {failures.map((failure) => (
                    <List.Item key={failure.id}>
                      <ShortId id={failure.id} />: {failure.reason}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          {done === null ? (
            <>
              <Button variant="default" onClick={() => onClose(false)} data-autofocus>
                Cancel
              </Button>
              <Button color={action === 'delete' ? 'red' : undefined} onClick={() => void start()} disabled={total === 0}>
                {label.verb} {noun(total)}
              </Button>
            </>
          ) : (
            <Button onClick={() => onClose(true)} disabled={!finished}>
              Close
            </Button>
          )}
        </Group>
      </Stack>
    </Dialog>
  );
}
