import { msg } from '@lingui/core/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useState } from 'react';
import { unavailable } from '../../../components/unavailable-dialog';
import { useCardLayout } from '../../../components/use-card-layout';
import type { SettingsResponse } from '../../../contract/settings';
import type { StartersSectionProps } from './starters/starters-section';
import { serverFeaturesQuery } from '../../../queries/server-capabilities';
import { settingsQuery } from '../../../queries/settings';
import { sandboxCapacityQuery } from '../../../queries/sandboxes';
import { ownersQuery } from '../../../queries/team';
import { useSignedInUser } from '../shared/use-signed-in-user';
import { BulkConfirmDialog } from './bulk-confirm-dialog';
import { ConversationsView } from './conversations-view';
import { useBulkActions } from './use-bulk-actions';
import { useConversationList } from './use-conversation-list';
import { useFollowStart } from './use-follow-start';
import { useListFilters } from './use-list-filters';
import { useRetryStart } from './use-retry-start';
import { useStartsUnderWay } from './use-starts-under-way';
import { useTitleSearch } from './use-title-search';

/** What the router loads: the page, and the catalog of its strings. */
export { ConversationsPage as Page };
export { loadCatalog as catalog } from './catalog';

/**
 * The form (and react-hook-form with it) loads when first opened: most visits to the list start
 * nothing. Should its code fail to load (the server was updated meanwhile), a dialog says so.
 */
const NewConversationDialog = lazy(() =>
  import('./new-conversation-dialog').then(
    (module) => ({ default: module.NewConversationDialog }),
    () => unavailable(msg`New conversation`),
  ),
);

/**
 * Suggested tasks and issues to start from, loaded only when a setting asks for them: most of the
 * list's visits need neither. Should their code fail to load, the list shows without them.
 */
const StartersSection = lazy((): Promise<{ default: ComponentType<StartersSectionProps> }> =>
  import('./starters/starters-section').then(
    (module) => ({ default: module.StartersSection }),
    () => ({ default: () => null }),
  ),
);

/** What the settings offer to start from: both need a connected GitHub, GitLab or Bitbucket. */
function startersOf(settings: SettingsResponse | null) {
  const connected = Object.keys(settings?.provider_tokens_set ?? {}).some((p) => p === 'github' || p === 'gitlab' || p === 'bitbucket');
  return {
    suggestions: connected && settings?.enable_proactive_conversation_starters === true,
    solvability: connected && settings?.enable_solvability_analysis === true,
  };
}

export function ConversationsPage() {
  const queryClient = useQueryClient();
  const [filters, changeFilters] = useListFilters();
  const title = useTitleSearch(filters.title, (typed) => changeFilters({ title: typed }));
  const owners = useQuery(ownersQuery(queryClient)).data ?? undefined;
  const signedInUserId = useSignedInUser().userId;

  const features = useQuery(serverFeaturesQuery()).data;
  const canArchive = features?.conversationArchive === true;
  const list = useConversationList(filters, canArchive);
  // The table's columns fit down to a tablet's width.
  const layout = useCardLayout('47.99em');
  const capacity = useQuery(sandboxCapacityQuery(features?.sandboxCapacity === true));
  // Asked only for the first conversation's sake: the empty list says how to get a model.
  const noModel = useQuery({ ...settingsQuery(), select: (settings) => !settings?.llm_model, enabled: list.items?.length === 0 }).data;
  const starters = useQuery({ ...settingsQuery(), select: startersOf, enabled: features?.taskStarters === true }).data;

  const starts = useStartsUnderWay(signedInUserId);
  const follow = useFollowStart();
  const retry = useRetryStart(starts.tasks, (failed, started) => {
    starts.dismiss(failed.id);
    follow(started.id);
  });
  const bulk = useBulkActions(list.items);
  const [newOpen, setNewOpen] = useState(false);

  return (
    <>
      <ConversationsView
        canArchive={canArchive}
        canSort={features?.conversationSort === true}
        filters={filters}
        titleInput={title.input}
        onTitleInput={title.onInput}
        onTitleLeave={title.onLeave}
        onFiltersChange={(changes) => {
          bulk.setSelected(new Set()); // a selection belongs to the rows it was made on
          changeFilters(changes);
        }}
        items={list.items}
        noModel={noModel}
        error={list.error}
        onRetry={list.retry}
        count={list.count}
        hasMore={list.hasMore}
        loadingMore={list.loadingMore}
        onLoadMore={list.loadMore}
        tasks={starts.tasks}
        retryingTask={retry.retryingTask}
        onRetryTask={retry.retry}
        onDismissTask={(task) => starts.dismiss(task.id)}
        selected={bulk.selected}
        onSelect={bulk.setSelected}
        onBulk={bulk.ask}
        onNew={() => setNewOpen(true)}
        layout={layout}
        capacity={capacity.data}
        owners={owners}
        signedInUserId={signedInUserId}
        starters={
          starters && (starters.suggestions || starters.solvability) ? (
            <Suspense fallback={null}>
              <StartersSection {...starters} onStarted={(task) => follow(task.id)} />
            </Suspense>
          ) : undefined
        }
      />
      {newOpen && (
        <Suspense fallback={null}>
          <NewConversationDialog
            onClose={() => setNewOpen(false)}
            onStarted={(task) => {
              setNewOpen(false);
              follow(task.id);
            }}
          />
        </Suspense>
      )}
      {bulk.asked && (
        <BulkConfirmDialog
          action={bulk.asked}
          selection={bulk.selection}
          pending={bulk.running}
          onClose={bulk.cancel}
          onConfirm={bulk.confirm}
        />
      )}
    </>
  );
}
