import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/errors';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { SidePanel } from '../../components/side-panel';
import { useUrlParams } from '../../components/use-url-params';
import { sandboxSpecsQuery } from '../../queries/sandbox-specs';
import { startSandboxMutation } from '../../queries/sandboxes';
import { notifyStarted } from './notices';
import { SpecDetails } from './spec-details';
import { SandboxSpecsList } from './specs-view';
import { useCardLayout } from '../../components/use-card-layout';

/** What the router loads: the page, and the catalog of its strings. */
export { SandboxSpecsPage as Page };
export { loadSandboxesCatalog as catalog } from './catalog';

export function SandboxSpecsPage() {
  const { t, i18n } = useLingui();
  const specs = useQuery(sandboxSpecsQuery());
  // The open spec is in the URL, so its details can be shared and survive a reload.
  const [params, update] = useUrlParams<'spec'>();
  const open = specs.data?.items.find((spec) => spec.id === params.get('spec'));
  const specId = open?.id;
  const layout = useCardLayout();
  const start = useMutation(startSandboxMutation(useQueryClient()));
  const navigate = useNavigate();
  // From a row or from the details alike: started (or why not), then the sandbox in its list.
  const startFrom = (id: string) =>
    start.mutate(id, {
      onSuccess: (sandbox) => {
        notifyStarted(i18n, sandbox);
        void navigate('/sandboxes');
      },
      onError: (error) => notifications.show({ color: 'red', title: t`Sandbox not started`, message: describeError(error) }),
    });
  const startingId = start.isPending ? start.variables : undefined;

  return (
    <>
      <PageHeader title={t`Sandbox specs`} description={t`The templates sandboxes start from. The first is the default.`} />
      <QueryContent query={specs} what={t`sandbox specs`}>
        {({ items }) =>
          items.length === 0 ? (
            <EmptyState title={t`The server offers no sandbox specs`} />
          ) : (
            <SandboxSpecsList
              specs={items}
              layout={layout}
              onDetails={(id) => update({ spec: id })}
              onStart={startFrom}
              startingId={startingId}
            />
          )
        }
      </QueryContent>
      {open && (
        <SidePanel opened onClose={() => update({ spec: undefined })} size="lg" title={t`Spec ${specId}`}>
          <SpecDetails spec={open} onStart={() => startFrom(open.id)} starting={startingId === open.id} />
        </SidePanel>
      )}
    </>
  );
}
