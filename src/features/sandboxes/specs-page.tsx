import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { SidePanel } from '../../components/side-panel';
import { useUrlParams } from '../../components/use-url-params';
import type { SandboxSpec } from '../../contract/sandboxes';
import { notifyStarted } from './notices';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { startSandboxMutation } from '../../queries/sandboxes';
import { SandboxSpecsTable, SpecDetails } from './specs-view';

export function SandboxSpecsPage() {
  const specs = useQuery(sandboxSpecsQuery());
  // The open spec is in the URL, so its details can be shared and survive a reload.
  const [params, update] = useUrlParams<'spec'>();
  const open = specs.data?.items.find((spec) => spec.id === params.get('spec'));
  return (
    <>
      <PageHeader title="Sandbox specs" description="The templates sandboxes start from. The first is the default." />
      <QueryContent query={specs} what="sandbox specs">
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState title="The server offers no sandbox specs" />
          ) : (
            <SandboxSpecsTable specs={items} onDetails={(id) => update({ spec: id })} />
          )
        }
      </QueryContent>
      {open && <SpecDrawer spec={open} onClose={() => update({ spec: undefined })} />}
    </>
  );
}

function SpecDrawer({ spec, onClose }: { spec: SandboxSpec; onClose: () => void }) {
  const start = useMutation(startSandboxMutation(useQueryClient()));
  const navigate = useNavigate();
  const startFromSpec = () =>
    start.mutate(spec.id, {
      onSuccess: (sandbox) => {
        notifyStarted(sandbox);
        void navigate('/sandboxes');
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Sandbox not started', message: describeError(error) }),
    });
  return (
    <SidePanel opened onClose={onClose} size="lg" title={`Spec ${spec.id}`}>
      <SpecDetails spec={spec} onStart={startFromSpec} starting={start.isPending} />
    </SidePanel>
  );
}
