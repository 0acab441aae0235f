import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../../api/errors';
import { downloadWorkspaceArchive, downloadWorkspaceFile } from '../../../api/workspace';
import { LoadedContent, QueryContent } from '../../../components/query-content';
import { saveFile } from '../../../components/save-file';
import { useUrlParams } from '../../../components/use-url-params';
import { MAX_SHOWN_BYTES, workspaceFileQuery, workspaceFilesQuery } from '../../../queries/workspace';
import { type WorkspaceSandbox, WorkspaceSandboxNotice } from './workspace-sandbox';
import { FilesView } from './files-view';

/** A conversation's Files tab: the folder and the file shown are in the URL. */
export function WorkspaceFiles({ conversationId, sandbox }: { conversationId: string; sandbox: WorkspaceSandbox }) {
  const { t } = useLingui();
  const [params, update] = useUrlParams<'dir' | 'open'>();
  const running = sandbox.status === 'RUNNING';
  const dir = params.get('dir') ?? '';
  const file = params.get('open') ?? undefined;
  const listing = useQuery({ ...workspaceFilesQuery(conversationId, dir), enabled: running });
  // A file the listing says is too large to show is not read: it is offered for download.
  const size = listing.data?.entries.find((entry) => (dir ? `${dir}/${entry.name}` : entry.name) === file)?.size ?? null;
  const tooLarge = size !== null && size > MAX_SHOWN_BYTES;
  const content = useQuery({
    ...workspaceFileQuery(conversationId, file ?? ''),
    enabled: running && file !== undefined && listing.data !== undefined && !tooLarge,
  });
  const [archiving, setArchiving] = useState(false);
  if (!running) return <WorkspaceSandboxNotice sandbox={sandbox} tab="files" />;
  const failed = (title: string) => (error: unknown) => notifications.show({ color: 'red', title, message: describeError(error) });
  return (
    <QueryContent query={listing} what={t`the files`}>
      {(entries) => (
        <FilesView
          dir={dir}
          listing={entries}
          onOpenDir={(next) => update({ dir: next || undefined, open: undefined })}
          file={file}
          onOpenFile={(next) => update({ open: next })}
          content={tooLarge ? { kind: 'too-large', size } : content.data}
          contentState={
            <LoadedContent data={undefined} error={content.error} onRetry={() => void content.refetch()} what={t`the file`}>
              {() => null}
            </LoadedContent>
          }
          onDownloadFile={(path) => downloadWorkspaceFile(conversationId, path).then(saveFile, failed(t`Could not download ${path}`))}
          onDownloadArchive={() => {
            setArchiving(true);
            downloadWorkspaceArchive(conversationId)
              .then(saveFile, failed(t`Could not download the workspace`))
              .finally(() => setArchiving(false));
          }}
          archiving={archiving}
        />
      )}
    </QueryContent>
  );
}
