import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { fetchAuditLogs, verifyAuditLog } from '../api/audit';

const PAGE_SIZE = 100;

export const auditKeys = {
  all: ['audit-logs'] as const,
  list: (q: string) => [...auditKeys.all, 'list', q] as const,
  verification: () => [...auditKeys.all, 'verification'] as const,
};

/** Entries matching `q`, newest first, a page at a time ("Load more"). */
export const auditLogsQuery = (q: string) =>
  infiniteQueryOptions({
    queryKey: auditKeys.list(q),
    queryFn: ({ pageParam, signal }) => fetchAuditLogs({ q, offset: pageParam, limit: PAGE_SIZE }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.audit_logs.length, 0);
      return loaded < last.count && last.audit_logs.length > 0 ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });

/** Whether the chain holds: asked for when the user asks (it reads the whole log). */
export const auditVerificationQuery = () =>
  queryOptions({ queryKey: auditKeys.verification(), queryFn: ({ signal }) => verifyAuditLog(signal), enabled: false, retry: false });
