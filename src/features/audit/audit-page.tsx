import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { downloadAuditLogs } from '../../api/audit';
import { describeError } from '../../api/errors';
import { PageHeader } from '../../components/page-header';
import { LoadedContent } from '../../components/query-content';
import { saveFile } from '../../components/save-file';
import { SidePanel } from '../../components/side-panel';
import { useUrlParams } from '../../components/use-url-params';
import {
  AUDIT_ACTIONS,
  AUDIT_RESOURCE_TYPES,
  AUDIT_RESULTS,
  type AuditFilter,
  type AuditLog,
  type AuditVerification,
  auditQueryOf,
} from '../../contract/audit';
import { auditLogsQuery, auditVerificationQuery } from '../../queries/audit';
import { AuditEntryDetail } from './audit-entry-detail';
import { type AuditFilterKey, AuditFilters } from './audit-filters';
import { AuditView } from './audit-view';

/** What the router loads: the page, and the catalog of its strings. */
export { AuditPage as Page };
export { loadAuditCatalog as catalog } from './catalog';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The URL's filters, each kept only when it is one the server knows. */
function filterOf(params: URLSearchParams): AuditFilter {
  const one = <T extends string>(key: string, allowed: readonly T[]) => {
    const value = params.get(key);
    return value && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
  };
  const date = (key: string) => {
    const value = params.get(key);
    return value && DATE.test(value) ? value : undefined;
  };
  return {
    username: params.get('username')?.trim() || undefined,
    action: one('action', AUDIT_ACTIONS),
    resource_type: one('resource_type', AUDIT_RESOURCE_TYPES),
    result: one('result', AUDIT_RESULTS),
    date_from: date('date_from'),
    date_to: date('date_to'),
  };
}

function VerificationAlert({ result, onClose }: { result: AuditVerification; onClose: () => void }) {
  const { t } = useLingui();
  const { checked } = result;
  if (result.ok)
    return (
      <Alert color="green" title={t`The audit log holds`} withCloseButton onClose={onClose}>
        <Trans>Every one of its {checked} entries is as it was written and follows the one before it.</Trans>
      </Alert>
    );
  const seq = result.broken_at?.seq ?? 0;
  return (
    <Alert color="red" title={t`The audit log does not hold`} withCloseButton onClose={onClose}>
      {result.broken_at?.problem === 'missing' ? (
        <Trans>Entry {seq} is missing: entries were removed from the database.</Trans>
      ) : result.broken_at?.problem === 'unlinked' ? (
        <Trans>Entry {seq} does not follow the entry before it: an entry was changed or put in its place.</Trans>
      ) : (
        <Trans>Entry {seq} was changed in the database after it was written.</Trans>
      )}
    </Alert>
  );
}

/** Owners and admins: who did what, when and from where, filtered in the URL, exported, and checked. */
export function AuditPage() {
  const { t } = useLingui();
  const [params, update] = useUrlParams<AuditFilterKey>();
  const filter = filterOf(params);
  const [username] = useDebouncedValue(filter.username, 300);
  const q = auditQueryOf({ ...filter, username });
  const entries = useInfiniteQuery(auditLogsQuery(q));
  const verification = useQuery(auditVerificationQuery());
  const [shownVerification, setShownVerification] = useState(false);
  const [open, setOpen] = useState<AuditLog | null>(null);
  const [exporting, setExporting] = useState<'csv' | 'json' | null>(null);

  const exportAs = (format: 'csv' | 'json') => {
    setExporting(format);
    downloadAuditLogs(q, format)
      .then(saveFile, (error: unknown) =>
        notifications.show({ color: 'red', title: t`Could not export the audit log`, message: describeError(error) }),
      )
      .finally(() => setExporting(null));
  };
  const verify = () => {
    setShownVerification(true);
    void verification.refetch();
  };

  const pages = entries.data?.pages;
  return (
    <>
      <PageHeader
        title={t`Audit log`}
        description={t`Who did what on this server, when and from where. Each entry is chained to the one before it, so a changed entry shows.`}
        actions={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconShieldCheck size={16} />} loading={verification.isFetching} onClick={verify}>
              <Trans>Check the chain</Trans>
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exporting === 'csv'}
              onClick={() => exportAs('csv')}
            >
              <Trans>Export CSV</Trans>
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exporting === 'json'}
              onClick={() => exportAs('json')}
            >
              <Trans>Export JSON</Trans>
            </Button>
          </Group>
        }
      />
      <Stack>
        {shownVerification && verification.data && !verification.isFetching && (
          <VerificationAlert result={verification.data} onClose={() => setShownVerification(false)} />
        )}
        {shownVerification && verification.error && (
          <Alert color="red" title={t`Could not check the audit log`}>
            {describeError(verification.error)}
          </Alert>
        )}
        <AuditFilters filter={filter} onChange={update} />
        <LoadedContent data={pages} error={entries.error} onRetry={() => void entries.refetch()} what={t`the audit log`}>
          {(loaded) => (
            <Stack>
              <AuditView entries={loaded.flatMap((page) => page.audit_logs)} count={loaded.at(-1)?.count ?? 0} onOpen={setOpen} />
              {entries.hasNextPage && (
                <Button variant="default" loading={entries.isFetchingNextPage} onClick={() => void entries.fetchNextPage()} mx="auto">
                  <Trans>Load more</Trans>
                </Button>
              )}
            </Stack>
          )}
        </LoadedContent>
      </Stack>
      <SidePanel opened={open !== null} onClose={() => setOpen(null)} title={t`Audit log entry`} size="lg">
        {open && <AuditEntryDetail entry={open} />}
      </SidePanel>
    </>
  );
}
