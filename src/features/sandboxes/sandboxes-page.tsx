import { Trans, useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/errors';
import type { SandboxAction } from '../../api/sandboxes';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ShortId, shortId } from '../../components/short-id';
import { useUrlParams } from '../../components/use-url-params';
import { type SandboxInfo, type SandboxStatus, SANDBOX_STATUSES } from '../../contract/sandboxes';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { serverFeaturesQuery } from '../../queries/server-capabilities';
import { sandboxActionMutation, sandboxCapacityQuery, sandboxesQuery, startSandboxMutation } from '../../queries/sandboxes';
import { ACTION_LABEL, ACTION_ON } from './action-text';
import { actionFailure } from './actions';
import { BulkActionDialog } from './bulk-action-dialog';
import { LogsDrawer } from './logs-drawer';
import { ResourcesDrawer } from './resources-drawer';
import { latestResourcesQuery } from '../../queries/usage';
import { notifyPausedOthers, notifyStarted } from './notices';
import { type FilterChange, SandboxesView } from './sandboxes-view';
import { StartSandboxDialog } from './start-sandbox-dialog';
import { useActionsInFlight } from './use-actions-in-flight';
import { useCardLayout } from '../../components/use-card-layout';
import { namedConversations, type SandboxConversation } from './used-by';
import { conversationsBySandboxQuery } from '../../queries/conversations';
import { ownersQuery } from '../../queries/team';

/** What the router loads: the page, and the catalog of its strings. */
export { SandboxesPage as Page };
export { loadSandboxesCatalog as catalog } from './catalog';

/** The dialog or drawer open over the list. */
type OpenDialog = { type: 'start' } | { type: 'delete' | 'pause'; sandbox: SandboxInfo } | { type: 'bulk'; action: SandboxAction };

const isStatus = (value: string | null): value is SandboxStatus => SANDBOX_STATUSES.includes(value as SandboxStatus);

/**
 * Filters, the page cursor and the sandbox whose logs are open live in the URL, so a view can be
 * shared and survives a reload.
 */
function useViewParams() {
  const [params, update] = useUrlParams<'status' | 'spec' | 'owner' | 'page' | 'logs' | 'resources'>();
  const status = params.get('status');
  const filters = {
    status: isStatus(status) ? status : undefined,
    specId: params.get('spec') ?? undefined,
    owner: params.get('owner') ?? undefined,
    pageId: params.get('page') ?? undefined,
  };
  const logsId = params.get('logs') ?? undefined;
  const resourcesId = params.get('resources') ?? undefined;
  return { filters, logsId, resourcesId, update };
}

export function SandboxesPage() {
  const { t, i18n } = useLingui();
  const { filters, logsId, resourcesId, update } = useViewParams();
  const inFlight = useActionsInFlight();
  const features = useQuery(serverFeaturesQuery()).data;
  const filtersOnClient = features?.sandboxFilters === false;
  const sandboxes = useQuery(sandboxesQuery(filters, inFlight.size > 0, filtersOnClient));
  const specs = useQuery(sandboxSpecsQuery());
  const capacity = useQuery(sandboxCapacityQuery(features?.sandboxCapacity === true));
  const queryClient = useQueryClient();
  const owners = useQuery(ownersQuery(queryClient)).data ?? undefined;
  const act = useMutation(sandboxActionMutation(queryClient));
  const start = useMutation(startSandboxMutation(queryClient));
  const [startingAgainId, setStartingAgainId] = useState<string>();
  const layout = useCardLayout();
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const items = useMemo(() => sandboxes.data?.items ?? [], [sandboxes.data]);
  const ids = useMemo(() => items.map((sandbox) => sandbox.id), [items]);
  const usedBy = useQuery(conversationsBySandboxQuery(ids, features?.conversationsBySandbox === true)).data;
  const servedBy = (sandbox: SandboxInfo) => usedBy?.get(sandbox.id) ?? [];
  const runningIds = useMemo(() => items.filter((sandbox) => sandbox.status === 'RUNNING').map((sandbox) => sandbox.id), [items]);
  const looks = useQuery({
    ...latestResourcesQuery(runningIds),
    enabled: features?.sandboxResources === true && runningIds.length > 0,
  }).data;
  const resources = useMemo(
    () => (features?.sandboxResources === true ? new Map((looks ?? []).map((look) => [look.sandbox_id, look])) : undefined),
    [features?.sandboxResources, looks],
  );
  const selection = items.filter((sandbox) => selected.has(sandbox.id));

  const changeFilters = (changes: FilterChange) => {
    setSelected(new Set()); // a selection belongs to the rows it was made on
    update({ page: undefined, ...changes });
  };

  const perform = (action: SandboxAction, sandbox: SandboxInfo) =>
    act.mutate(
      { action, id: sandbox.id },
      {
        onSuccess: (result) => notifyPausedOthers(i18n, result.paused_sandbox_ids),
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: t(ACTION_ON[action].failed(shortId(sandbox.id))),
            message: actionFailure(i18n, action, error),
          }),
      },
    );

  /** A new sandbox from the spec of one that failed or is gone (which stays until deleted). */
  const startAgain = (sandbox: SandboxInfo) => {
    setStartingAgainId(sandbox.id);
    start.mutate(sandbox.sandbox_spec_id, {
      onSuccess: (started) => notifyStarted(i18n, started),
      onError: (error) => notifications.show({ color: 'red', title: t`Sandbox not started`, message: describeError(error) }),
      onSettled: () => setStartingAgainId(undefined),
    });
  };

  return (
    <>
      <SandboxesView
        layout={layout}
        filters={filters}
        page={sandboxes.data}
        error={sandboxes.error}
        onRetry={() => void sandboxes.refetch()}
        specIds={specs.data?.items.map((spec) => spec.id) ?? []}
        inFlight={inFlight}
        selected={selected}
        onSelect={setSelected}
        onFiltersChange={changeFilters}
        onStart={() => setDialog({ type: 'start' })}
        onAction={(action, sandbox) =>
          action === 'delete' || (action === 'pause' && servedBy(sandbox).length > 0)
            ? setDialog({ type: action, sandbox })
            : perform(action, sandbox)
        }
        onStartAgain={startAgain}
        startingAgainId={startingAgainId}
        onBulk={(action) => setDialog({ type: 'bulk', action })}
        onLogs={features?.sandboxLogs === false ? undefined : (id) => update({ logs: id })}
        filtersOnClient={filtersOnClient}
        capacity={capacity.data}
        usedBy={usedBy}
        owners={owners}
        resources={resources}
        onResources={(id) => update({ resources: id })}
      />

      {dialog?.type === 'start' && <StartSandboxDialog onClose={() => setDialog(null)} initialSpec={filters.specId} />}
      {logsId && features?.sandboxLogs === true && <LogsDrawer sandboxId={logsId} onClose={() => update({ logs: undefined })} />}
      {resourcesId && features?.sandboxResources === true && (
        <ResourcesDrawer sandboxId={resourcesId} onClose={() => update({ resources: undefined })} />
      )}
      {dialog?.type === 'delete' && (
        <ConfirmDialog
          title={t`Delete sandbox?`}
          confirmLabel={t(ACTION_LABEL.delete.verb)}
          onClose={() => setDialog(null)}
          onConfirm={() => {
            perform('delete', dialog.sandbox);
            setDialog(null);
          }}
        >
          <DeleteWarning sandbox={dialog.sandbox} conversations={servedBy(dialog.sandbox)} />
        </ConfirmDialog>
      )}
      {dialog?.type === 'pause' && (
        <ConfirmDialog
          title={t`Pause sandbox?`}
          confirmLabel={t(ACTION_LABEL.pause.verb)}
          onClose={() => setDialog(null)}
          onConfirm={() => {
            perform('pause', dialog.sandbox);
            setDialog(null);
          }}
        >
          <PauseWarning sandbox={dialog.sandbox} conversations={servedBy(dialog.sandbox)} />
        </ConfirmDialog>
      )}
      {dialog?.type === 'bulk' && (
        <BulkActionDialog
          action={dialog.action}
          selected={selection}
          servedBy={servedBy}
          onClose={(finished) => {
            if (finished) setSelected(new Set());
            setDialog(null);
          }}
        />
      )}
    </>
  );
}

interface WarningProps {
  sandbox: SandboxInfo;
  /** The conversations it serves. */
  conversations: readonly SandboxConversation[];
}

/** What deleting a sandbox does, and to the conversations it serves. */
function DeleteWarning({ sandbox, conversations }: WarningProps) {
  const { i18n } = useLingui();
  const specId = sandbox.sandbox_spec_id;
  const served = conversations.length > 0 ? namedConversations(i18n, conversations) : undefined;
  return (
    <>
      <Trans>
        Sandbox{' '}
        <b>
          <ShortId id={sandbox.id} />
        </b>{' '}
        ({specId}) is stopped and its files are deleted. This cannot be undone.
      </Trans>
      {served && (
        <>
          {' '}
          <Trans>
            It serves {served}: they keep their history and can continue in a new sandbox, without what this one's workspace held and was
            not pushed.
          </Trans>
        </>
      )}
    </>
  );
}

/** What pausing a sandbox does to the conversations it serves (asked only when it serves some). */
function PauseWarning({ sandbox, conversations }: WarningProps) {
  const { i18n } = useLingui();
  const served = namedConversations(i18n, conversations);
  return (
    <Trans>
      Sandbox{' '}
      <b>
        <ShortId id={sandbox.id} />
      </b>{' '}
      serves {served}: their agents stop, a running command is stopped with them, until it is resumed.
    </Trans>
  );
}
