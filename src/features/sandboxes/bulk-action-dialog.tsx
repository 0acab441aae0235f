import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, List, Progress, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SandboxAction } from '../../api/sandboxes';
import { Dialog } from '../../components/dialog';
import { ShortId, shortId } from '../../components/short-id';
import type { SandboxInfo } from '../../contract/sandboxes';
import { sandboxActionMutation } from '../../queries/sandboxes';
import { BULK_TEXT } from './action-text';
import { actionFailure, pausedNotice, planBulk } from './actions';
import { namedConversations, type SandboxConversation } from './used-by';

/** What becomes of the conversations the sandboxes serve, as the single action's confirmation says. */
const SERVED_CONVERSATIONS: Record<SandboxAction, MessageDescriptor | undefined> = {
  delete: msg`Their conversations keep their history and can continue in a new sandbox, without what the workspaces held and was not pushed.`,
  pause: msg`Their agents stop, a running command is stopped with them, until the sandbox is resumed.`,
  resume: undefined,
};

/** What the dialog lists the sandboxes under, before it starts. */
const INTRO: Record<SandboxAction, MessageDescriptor> = {
  delete: msg`These sandboxes and their files are deleted for good:`,
  pause: msg`Pause:`,
  resume: msg`Resume:`,
};

/** The selected sandboxes an action does not apply to, and why (delete applies to all). */
const skipped = (action: SandboxAction, count: number) =>
  action === 'resume'
    ? msg`${plural(count, { one: '# sandbox of the selection is left out: not paused.', other: '# sandboxes of the selection are left out: not paused.' })}`
    : msg`${plural(count, { one: '# sandbox of the selection is left out: not running.', other: '# sandboxes of the selection are left out: not running.' })}`;

const failedTitle = (count: number) => msg`${plural(count, { one: '# sandbox failed', other: '# sandboxes failed' })}`;

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
  const { t, i18n } = useLingui();
  const [plan] = useState(() => planBulk(action, selected));
  const run = useMutation(sandboxActionMutation(useQueryClient()));
  const [done, setDone] = useState<number | null>(null);
  const [failures, setFailures] = useState<Failure[]>([]);
  const [pausedOthers, setPausedOthers] = useState<string[]>([]);
  const text = BULK_TEXT[action];
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
        setFailures((list) => [...list, { id: sandbox.id, reason: actionFailure(i18n, action, error) }]);
      }
      setDone(index + 1);
    }
    if (troubles === 0) {
      const ids = plan.apply.map((sandbox) => shortId(sandbox.id)).join(', ');
      notifications.show({ color: 'teal', title: t(text.done(total)), message: ids });
      onClose(true);
    }
  };

  const serving = plan.apply.some((sandbox) => servedBy(sandbox).length > 0);
  const running = done !== null && !finished;
  return (
    <Dialog
      opened
      onClose={() => onClose(finished)}
      title={t(text.question(total))}
      // Not while it works: the summary at the end is the point.
      closeOnClickOutside={!running}
      closeOnEscape={!running}
      withCloseButton={!running}
    >
      <Stack>
        {done === null ? (
          <>
            <Text size="sm" component="div">
              {t(INTRO[action])}
              <List size="sm" mt={4}>
                {plan.apply.map((sandbox) => (
                  <List.Item key={sandbox.id}>
                    <PlannedSandbox sandbox={sandbox} conversations={servedBy(sandbox)} />
                  </List.Item>
                ))}
              </List>
            </Text>
            {serving && SERVED_CONVERSATIONS[action] && <Text size="sm">{t(SERVED_CONVERSATIONS[action])}</Text>}
            {plan.skip.length > 0 && (
              <Text size="sm" c="dimmed">
                {t(skipped(action, plan.skip.length))}
              </Text>
            )}
          </>
        ) : (
          <>
            <Progress value={total ? (done / total) * 100 : 100} aria-label={t`Progress`} />
            <Text size="sm" role="status">
              {t(finished ? text.doneSentence(total - failures.length) : text.doing(done, total))}
            </Text>
            {finished && pausedOthers.length > 0 && (
              <Alert color="yellow" variant="light" role="status">
                {t(pausedNotice([...new Set(pausedOthers)])!)}
              </Alert>
            )}
            {finished && failures.length > 0 && (
              <Alert color="red" variant="light" title={t(failedTitle(failures.length))} role="alert">
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
                <Trans>Cancel</Trans>
              </Button>
              <Button color={action === 'delete' ? 'red' : undefined} onClick={() => void start()} disabled={total === 0}>
                {t(text.confirm(total))}
              </Button>
            </>
          ) : (
            <Button onClick={() => onClose(true)} disabled={!finished}>
              <Trans>Close</Trans>
            </Button>
          )}
        </Group>
      </Stack>
    </Dialog>
  );
}

/** A sandbox the action applies to: its id and spec, and the conversations it serves. */
function PlannedSandbox({ sandbox, conversations }: { sandbox: SandboxInfo; conversations: readonly SandboxConversation[] }) {
  const { i18n } = useLingui();
  const specId = sandbox.sandbox_spec_id;
  if (conversations.length === 0) {
    return (
      <>
        <ShortId id={sandbox.id} /> ({specId})
      </>
    );
  }
  const served = namedConversations(i18n, conversations);
  return (
    <Trans>
      <ShortId id={sandbox.id} /> ({specId}), which serves {served}
    </Trans>
  );
}
