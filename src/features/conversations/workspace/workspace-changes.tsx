import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { DiffLayout } from '../../../components/file-diff';
import { LoadedContent, LoadingSkeleton, QueryContent } from '../../../components/query-content';
import { useUrlParams } from '../../../components/use-url-params';
import { workspaceChangesQuery, workspaceDiffQuery } from '../../../queries/workspace';
import { type WorkspaceSandbox, WorkspaceSandboxNotice } from './workspace-sandbox';
import { ChangesView } from './changes-view';

/**
 * A conversation's Changes tab: its workspace's changes against the start, read from its agent
 * server while the sandbox runs; the chosen file and the layout are in the URL.
 */
export function WorkspaceChanges({ conversationId, sandbox }: { conversationId: string; sandbox: WorkspaceSandbox }) {
  const { t } = useLingui();
  const [params, update] = useUrlParams<'file' | 'diff'>();
  const running = sandbox.status === 'RUNNING';
  const selected = params.get('file') ?? undefined;
  const layout: DiffLayout = params.get('diff') === 'split' ? 'split' : 'unified';
  const changes = useQuery({ ...workspaceChangesQuery(conversationId), enabled: running });
  const diff = useQuery({ ...workspaceDiffQuery(conversationId, selected ?? ''), enabled: running && selected !== undefined });
  if (!running) return <WorkspaceSandboxNotice sandbox={sandbox} tab="changes" />;
  return (
    <QueryContent query={changes} what={t`the changes`}>
      {(list) => (
        <ChangesView
          changes={list}
          selected={selected}
          onSelect={(file) => update({ file })}
          layout={layout}
          onLayout={(next) => update({ diff: next === 'split' ? 'split' : undefined })}
          diff={diff.data}
          diffState={
            <LoadedContent
              data={undefined}
              error={diff.error}
              onRetry={() => void diff.refetch()}
              what={t`the diff`}
              skeleton={<LoadingSkeleton what={t`the diff`} />}
            >
              {() => null}
            </LoadedContent>
          }
        />
      )}
    </QueryContent>
  );
}
