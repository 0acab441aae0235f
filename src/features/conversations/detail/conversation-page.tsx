import { useLingui as useTranslate } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { describeError, isApiError } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { LoadingSkeleton, QueryContent } from '../../../components/query-content';
import { useUrlParams } from '../../../components/use-url-params';
import type { AppConversation } from '../../../contract/conversations';
import type { Confirmation } from '../../../contract/events';
import { confirmActionsMutation, pauseAgentMutation, runAgentMutation, sendMessageMutation } from '../../../queries/agent';
import {
  continueInNewSandboxMutation,
  conversationKeys,
  conversationQuery,
  conversationTitlesQuery,
  deleteConversationMutation,
  startTaskQuery,
  updateConversationMutation,
} from '../../../queries/conversations';
import { serverFeaturesQuery } from '../../../queries/server-capabilities';
import { eventCountQuery } from '../../../queries/events';
import { sandboxActionMutation } from '../../../queries/sandboxes';
import { ownersQuery } from '../../../queries/team';
import { ownerName } from '../../../components/owners';
import { useSignedInUser } from '../shared/use-signed-in-user';
import { AgentControls, type AgentRequest } from './agent-controls';
import type { Continuation } from '../shared/sandbox-notice';
import { type ConversationTab, ConversationTabs } from './conversation-tabs';
import { ConversationView } from './conversation-view';
import { buildTimeline, summarizeAction, type TimelineItem, waitingActions } from './timeline';
import { useConversationEvents } from './use-conversation-events';
import { useChimeWhenWaiting } from './use-chime-when-waiting';
import type { OutgoingMessage } from '../../../api/agent';

/** What the router loads: the page, and the catalog of its strings. */
export { ConversationPage as Page };
export { loadCatalog as catalog } from './catalog';

/** The workspace's tabs load when one is opened: most visits are to follow the agent. */
const WorkspaceChanges = lazy(() => import('../workspace/workspace-changes').then((module) => ({ default: module.WorkspaceChanges })));
const WorkspaceFiles = lazy(() => import('../workspace/workspace-files').then((module) => ({ default: module.WorkspaceFiles })));

/**
 * The timeline (with its virtualizer, the heaviest part) loads while the conversation's events
 * stream in, so the page itself opens sooner. Should its code fail to load (the server was
 * updated meanwhile), the page says so.
 */
const EventTimeline = lazy(() =>
  import('./event-timeline').then(
    (module) => ({ default: module.EventTimeline }),
    () => ({
      default: () => (
        <Text c="red" size="sm">
          <Trans>The events could not be shown: reload the page.</Trans>
        </Text>
      ),
    }),
  ),
);

const SANDBOX_ACTIONS = { RUNNING: 'pause', STARTING: 'pause', PAUSED: 'resume' } as const;
const TABS: ConversationTab[] = ['conversation', 'changes', 'files'];

export function ConversationPage() {
  const { t } = useLingui();
  const { conversationId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const conversation = useQuery(conversationQuery(conversationId));
  const parentId = conversation.data?.parent_conversation_id;
  const subIds = conversation.data?.sub_conversation_ids ?? [];
  const relatedTitles = useQuery(conversationTitlesQuery(parentId ? [parentId, ...subIds] : subIds)).data;
  const update = useMutation(updateConversationMutation(queryClient));
  const remove = useMutation(deleteConversationMutation(queryClient));
  const sandboxAction = sandboxActionMutation(queryClient);
  // The conversation shows its sandbox's status too: refreshed beside the sandbox lists the factory refreshes.
  const sandbox = useMutation({
    ...sandboxAction,
    onSettled: (...args) =>
      Promise.all([
        sandboxAction.onSettled?.(...args),
        queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) }),
      ]),
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const features = useQuery(serverFeaturesQuery()).data;
  const canArchive = features?.conversationArchive === true;
  const agentControls = features?.agentControls === true;
  const agent = useAgent(conversationId, conversation.data);
  const continuation = useContinuation(conversationId);
  const whose = useWhose(conversation.data?.created_by_user_id);
  const othersName = whose.othersName;
  /** A workspace tab: the workspace is its owner's to read (it may hold their secrets). */
  const workspaceTab = (Tab: typeof WorkspaceChanges | typeof WorkspaceFiles) => {
    const c = conversation.data;
    if (!features?.workspace || !c) return undefined;
    if (othersName !== undefined) return <OthersWorkspace ownerName={othersName} />;
    return (
      <Tab
        conversationId={c.id}
        sandbox={{
          status: c.sandbox_status,
          onResume: () => sandbox.mutate({ action: 'resume', id: c.sandbox_id }, { onError: failed(t`Could not resume its sandbox`) }),
          resuming: sandbox.isPending,
          continuation,
        }}
      />
    );
  };
  const [params, updateParams] = useUrlParams<'tab' | 'file' | 'diff' | 'dir' | 'open'>();
  const tab = TABS.find((candidate) => candidate === params.get('tab')) ?? 'conversation';

  const failed = (title: string) => (error: unknown) => notifications.show({ color: 'red', title, message: describeError(error) });

  if (isApiError(conversation.error) && conversation.error.status === 404 && !conversation.data) {
    return (
      <EmptyState title={t`Conversation not found`} description={t`It may have been deleted.`}>
        <Button component={Link} to="/conversations" variant="default">
          <Trans>All conversations</Trans>
        </Button>
      </EmptyState>
    );
  }

  return (
    <>
      <QueryContent query={conversation} what={t`the conversation`} skeletonHeight={240}>
        {(c) => (
          <ConversationView
            conversation={c}
            renaming={update.isPending && update.variables.title !== undefined}
            onRename={(title) => update.mutate({ id: c.id, title }, { onError: failed(t`Could not rename it`) })}
            onArchive={
              canArchive
                ? (archived) =>
                    update.mutate(
                      { id: c.id, archived },
                      {
                        onSuccess: () =>
                          notifications.show({ color: 'teal', title: archived ? t`Archived` : t`Unarchived`, message: c.title ?? c.id }),
                        onError: failed(archived ? t`Could not archive it` : t`Could not unarchive it`),
                      },
                    )
                : undefined
            }
            sandboxAction={
              c.sandbox_status in SANDBOX_ACTIONS ? SANDBOX_ACTIONS[c.sandbox_status as keyof typeof SANDBOX_ACTIONS] : undefined
            }
            sandboxActionPending={sandbox.isPending}
            onSandboxAction={(action) =>
              sandbox.mutate(
                { action, id: c.sandbox_id },
                { onError: failed(action === 'pause' ? t`Could not pause its sandbox` : t`Could not resume its sandbox`) },
              )
            }
            onDelete={() => setConfirmDelete(true)}
            relatedTitles={relatedTitles}
            ownerName={othersName}
          >
            <ConversationTabs
              tab={tab}
              onTab={(next) =>
                updateParams({
                  tab: next === 'conversation' ? undefined : next,
                  file: undefined,
                  diff: undefined,
                  dir: undefined,
                  open: undefined,
                })
              }
              conversation={
                <Stack>
                  <Suspense fallback={<LoadingSkeleton what={t`the events`} height={320} />}>
                    <EventTimeline
                      items={agent.items}
                      connection={agent.connection}
                      history={agent.history}
                      canSend={whose.known && Boolean(agentControls) && othersName === undefined}
                    />
                  </Suspense>
                  {!whose.known ? null : agentControls ? (
                    <AgentControls
                      {...agent.controls}
                      sandboxStatus={c.sandbox_status}
                      executionStatus={c.execution_status}
                      onResumeSandbox={() =>
                        sandbox.mutate({ action: 'resume', id: c.sandbox_id }, { onError: failed(t`Could not resume its sandbox`) })
                      }
                      resumingSandbox={sandbox.isPending}
                      continuation={othersName === undefined ? continuation : undefined}
                      ownerName={othersName}
                    />
                  ) : (
                    <Alert color="gray" variant="light">
                      <Trans>
                        This server has no routes to write to the agent from here (OpenHands&apos; own client talks to the sandbox
                        directly): use it to send messages. New events still show here.
                      </Trans>
                    </Alert>
                  )}
                </Stack>
              }
              changes={workspaceTab(WorkspaceChanges)}
              files={workspaceTab(WorkspaceFiles)}
            />
          </ConversationView>
        )}
      </QueryContent>
      {confirmDelete && conversation.data && (
        <ConfirmDialog
          title={t`Delete conversation?`}
          confirmLabel={t`Delete`}
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(conversation.data.id, {
              onSuccess: () => {
                notifications.show({
                  color: 'teal',
                  title: t`Conversation deleted`,
                  message: conversation.data.title ?? conversation.data.id,
                });
                void navigate('/conversations');
              },
            })
          }
        >
          <DeleteWarning title={conversation.data.title} />
        </ConfirmDialog>
      )}
    </>
  );
}

function DeleteWarning({ title }: { title: string | null }) {
  return (
    <Trans>
      <b>{title}</b> is deleted with its start tasks, and with its sandbox when it started one that no other conversation uses. This cannot
      be undone.
    </Trans>
  );
}

/** A workspace is its owner's to read: it may hold their secrets (a setup script's files, say). */
function OthersWorkspace({ ownerName }: { ownerName: string }) {
  const { t } = useLingui();
  return (
    <Alert color="gray" variant="light" title={t`${ownerName}’s workspace`}>
      <Trans>Only {ownerName} can read this conversation&apos;s workspace: it may hold their secrets.</Trans>
    </Alert>
  );
}

/**
 * Whose a conversation of `userId`'s is: `othersName` names its owner when it is not the signed-in
 * user's (an admin looking at a member's); `known` is false until that is known.
 */
function useWhose(userId: string | null | undefined): { known: boolean; othersName: string | undefined } {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const me = useSignedInUser();
  const others = Boolean(me.userId && userId && userId !== me.userId);
  const owners = useQuery({ ...ownersQuery(queryClient), enabled: others }).data;
  if (!others) return { known: me.known, othersName: undefined };
  return { known: true, othersName: owners ? ownerName(owners, userId) : t`another user` };
}

/**
 * Going on in a new sandbox: asks for it, then follows the start task that makes it; once READY
 * the conversation (its sandbox, its status) is read again, and its events come from the new one.
 */
function useContinuation(conversationId: string): Continuation {
  const queryClient = useQueryClient();
  const ask = useMutation(continueInNewSandboxMutation(queryClient));
  // Whose start it is: a link to another conversation keeps this page, not its start.
  const [started, setStarted] = useState<{ conversationId: string; taskId: string } | null>(null);
  const taskId = started?.conversationId === conversationId ? started.taskId : null;
  const setTaskId = (id: string | null) => setStarted(id === null ? null : { conversationId, taskId: id });
  const task = useQuery({ ...startTaskQuery(taskId ?? ''), enabled: taskId !== null }).data ?? null;
  const ready = task?.status === 'READY';
  useEffect(() => {
    if (ready) void queryClient.invalidateQueries({ queryKey: conversationKeys.detail(conversationId) });
  }, [ready, queryClient, conversationId]);
  return {
    onContinue: () => ask.mutate(conversationId, { onSuccess: (started) => setTaskId(started.id) }),
    task: taskId === null ? null : task,
    onDismiss: () => {
      setTaskId(null);
      ask.reset();
    },
    asking: ask.isPending,
    error: ask.error,
  };
}

/** The agent's side of a conversation: its events, live, and what a person can ask of it. */
function useAgent(conversationId: string, conversation: AppConversation | undefined) {
  // A new `_` each time the language changes: the summaries follow.
  const { _ } = useTranslate();
  const queryClient = useQueryClient();
  const events = useConversationEvents(conversationId);
  const count = useQuery(eventCountQuery({ conversationId }));
  const send = useMutation(sendMessageMutation(queryClient, conversationId));
  const pause = useMutation(pauseAgentMutation(queryClient, conversationId));
  const run = useMutation(runAgentMutation(queryClient, conversationId));
  const confirm = useMutation(confirmActionsMutation(queryClient, conversationId));

  const executionStatus = conversation?.execution_status ?? null;
  useChimeWhenWaiting(executionStatus);
  const stored = useMemo(() => buildTimeline(events.events, executionStatus), [events.events, executionStatus]);
  const items = useMemo<TimelineItem[]>(
    () => [
      ...(events.terminal.size === 0
        ? stored
        : stored.map((item) =>
            item.type === 'action' && !item.outcome && events.terminal.has(item.action.id)
              ? { ...item, liveOutput: events.terminal.get(item.action.id) }
              : item,
          )),
      ...[...events.streaming].map(([responseId, text]) => ({ type: 'streaming' as const, key: `streaming-${responseId}`, text })),
    ],
    [stored, events.streaming, events.terminal],
  );
  const waiting = useMemo(
    () =>
      waitingActions(stored).map((item) => ({ text: summarizeAction(item.action, _, item.server).text, risk: item.action.security_risk })),
    [stored, _],
  );

  /** A new request clears what the last one said. */
  const clearRequests = () => {
    for (const mutation of [pause, run, confirm]) mutation.reset();
  };
  const pending: AgentRequest | null = pause.isPending
    ? 'pause'
    : run.isPending
      ? 'run'
      : confirm.isPending
        ? confirm.variables.accept
          ? 'approve'
          : 'reject'
        : null;

  return {
    items,
    connection: events.connection,
    history: count.data === undefined ? null : { received: events.events.length, total: count.data },
    controls: {
      waiting,
      onSend: (message: OutgoingMessage) => send.mutateAsync(message),
      sending: send.isPending,
      sendError: send.error,
      onPause: () => {
        clearRequests();
        pause.mutate();
      },
      onRun: () => {
        clearRequests();
        run.mutate();
      },
      onConfirm: (confirmation: Confirmation) => {
        clearRequests();
        confirm.mutate(confirmation);
      },
      pending,
      requestError: pause.error ?? run.error ?? confirm.error,
    },
  };
}
