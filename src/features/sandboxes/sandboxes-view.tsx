import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { SandboxAction, SandboxFilters } from '../../api/sandboxes';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { PAGE_SEARCH } from '../../components/page-search';
import { SandboxCapacityLine } from '../../components/sandbox-capacity';
import { LoadedContent } from '../../components/query-content';
import { SelectionToolbar } from '../../components/selection-toolbar';
import { OwnerSelect } from '../../components/owner-select';
import type { Owner } from '../../contract/team';
import type { SandboxCapacity, SandboxInfo, SandboxPage } from '../../contract/sandboxes';
import { ACTION_LABEL } from './action-text';
import { canApply } from './actions';
import { AgentServerHint, agentServerUrl } from './agent-server';
import { SandboxRuntimeLine } from './runtime-line';
import { SandboxCards } from './sandbox-cards';
import { SandboxesTable } from './sandboxes-table';
import { statusOptions } from './status-badge';
import type { SandboxListProps } from './sandbox-list';
import type { SandboxConversation } from './used-by';

const BULK_ACTIONS = ['pause', 'resume', 'delete'] as const;

export type FilterChange = Partial<Record<'status' | 'spec' | 'owner' | 'page', string | undefined>>;

export interface SandboxesViewProps {
  filters: SandboxFilters;
  /** The page of sandboxes, `undefined` while it loads. */
  page: SandboxPage | undefined;
  /** Why the list could not be loaded. */
  error: unknown;
  onRetry: () => void;
  specIds: string[];
  inFlight: Map<string, SandboxAction>;
  selected: Set<string>;
  onSelect: (selected: Set<string>) => void;
  onFiltersChange: (changes: FilterChange) => void;
  onStart: () => void;
  onAction: (action: SandboxAction, sandbox: SandboxInfo) => void;
  /** A new sandbox from the spec of one that failed or is gone. */
  onStartAgain: (sandbox: SandboxInfo) => void;
  /** The sandbox whose "Start again" is under way. */
  startingAgainId?: string;
  onBulk: (action: SandboxAction) => void;
  /** Absent when the server has no sandbox logs (OpenHands). */
  onLogs?: (id: string) => void;
  /** The server ignores the filters (OpenHands): the console applies them to each page it loads. */
  filtersOnClient?: boolean;
  /** How many sandboxes run and exist against the caps, and where they run, when the server says. */
  capacity?: SandboxCapacity;
  /** Cards instead of a table, for narrow screens. */
  layout?: 'table' | 'cards';
  /** The conversations each sandbox serves, by its id, when the server says. */
  usedBy?: ReadonlyMap<string, readonly SandboxConversation[]>;
  /** The team, for an admin: an Owner column and filter show. */
  owners?: readonly Owner[];
  /** Each running sandbox's last look at what it uses (a Resources column), when the server says. */
  resources?: SandboxListProps['resources'];
  onResources?: (id: string) => void;
}

/** The sandboxes list as it looks: filters, the selection's actions, the table and the pages. */
export function SandboxesView({
  filters,
  page,
  error,
  onRetry,
  specIds,
  inFlight,
  selected,
  onSelect,
  onFiltersChange,
  onStart,
  onAction,
  onStartAgain,
  startingAgainId,
  onBulk,
  onLogs,
  filtersOnClient = false,
  capacity,
  layout = 'table',
  usedBy,
  owners,
  resources,
  onResources,
}: SandboxesViewProps) {
  const { t } = useLingui();
  const items = page?.items ?? [];
  const List = layout === 'cards' ? SandboxCards : SandboxesTable;
  const selection = items.filter((sandbox) => selected.has(sandbox.id));
  const filtered = Boolean(filters.status || filters.specId || filters.owner);
  const clearFilters = () => onFiltersChange({ status: undefined, spec: undefined, owner: undefined });
  const startButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={onStart}>
      <Trans>Start sandbox</Trans>
    </Button>
  );

  return (
    <>
      <PageHeader
        title={t`Sandboxes`}
        description={t`The environments conversations run in. Paused sandboxes keep their state and use no CPU.`}
        actions={startButton}
      />
      <SandboxCapacityLine capacity={capacity} />
      <SandboxRuntimeLine runtime={capacity?.runtime} isolation={capacity?.isolation} />
      <Group mb="md" align="flex-end">
        <NativeSelect
          {...PAGE_SEARCH}
          label={t`Status`}
          data={[{ value: '', label: t`All statuses` }, ...statusOptions(t)]}
          value={filters.status ?? ''}
          onChange={(event) => onFiltersChange({ status: event.currentTarget.value || undefined })}
        />
        <NativeSelect
          label={t`Spec`}
          data={[
            { value: '', label: t`All specs` },
            ...specIds.map((id) => ({ value: id, label: id })),
            ...(filters.specId && !specIds.includes(filters.specId) ? [{ value: filters.specId, label: filters.specId }] : []),
          ]}
          value={filters.specId ?? ''}
          onChange={(event) => onFiltersChange({ spec: event.currentTarget.value || undefined })}
        />
        {owners && (
          <OwnerSelect owners={owners} value={filters.owner ?? ''} onChange={(owner) => onFiltersChange({ owner: owner || undefined })} />
        )}
        {filtered && (
          <Button variant="subtle" onClick={clearFilters}>
            <Trans>Clear filters</Trans>
          </Button>
        )}
      </Group>

      {filtered && filtersOnClient && (
        <Text size="sm" c="dimmed" mb="sm">
          <Trans>
            This server ignores sandbox filters, so the console applies them to each page it loads: a page may show fewer sandboxes than it
            holds.
          </Trans>
        </Text>
      )}

      <SelectionToolbar
        label={t`Selected sandboxes`}
        count={selection.length}
        actions={BULK_ACTIONS.map((action) => ({
          label: t(ACTION_LABEL[action].verb),
          count: selection.filter((sandbox) => canApply(action, sandbox.status)).length,
          onClick: () => onBulk(action),
          destructive: action === 'delete',
        }))}
        onClear={() => onSelect(new Set())}
      />

      <LoadedContent data={page} error={error} onRetry={onRetry} what={t`sandboxes`} skeletonHeight={180}>
        {() =>
          items.length === 0 ? (
            <EmptyState title={filtered ? t`No sandboxes match these filters` : t`No sandboxes yet`}>
              {filtered ? (
                <Button variant="default" onClick={clearFilters}>
                  <Trans>Clear filters</Trans>
                </Button>
              ) : (
                startButton
              )}
            </EmptyState>
          ) : (
            <>
              <List
                items={items}
                inFlight={inFlight}
                startingAgainId={startingAgainId}
                runtime={capacity?.runtime}
                selected={selected}
                onSelect={onSelect}
                onAction={onAction}
                onStartAgain={onStartAgain}
                onLogs={onLogs}
                usedBy={usedBy}
                resources={resources}
                onResources={onResources}
                owners={owners}
              />
              {items.some(agentServerUrl) && <AgentServerHint />}
            </>
          )
        }
      </LoadedContent>

      {(filters.pageId || page?.next_page_id) && (
        <Group justify="flex-end" mt="sm">
          <Button variant="default" size="xs" disabled={!filters.pageId} onClick={() => onFiltersChange({ page: undefined })}>
            <Trans>First page</Trans>
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={!page?.next_page_id}
            onClick={() => onFiltersChange({ page: page?.next_page_id ?? undefined })}
          >
            <Trans>Next page</Trans>
          </Button>
        </Group>
      )}
    </>
  );
}
