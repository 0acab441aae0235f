import { auditLogPageSchema, auditVerificationSchema } from '../contract/audit';
import { apiDownload, apiRequest } from './client';

/** The audit log (ours, for owners and admins): pages newest first, exports, and whether its chain holds. */

export function fetchAuditLogs(query: { q: string; offset: number; limit: number }, signal?: AbortSignal) {
  const params = new URLSearchParams({ offset: String(query.offset), limit: String(query.limit) });
  if (query.q) params.set('q', query.q);
  return apiRequest(`/api/audit-logs?${params}`, { schema: auditLogPageSchema, signal });
}

export function downloadAuditLogs(q: string, format: 'csv' | 'json') {
  const params = new URLSearchParams({ format });
  if (q) params.set('q', q);
  return apiDownload(`/api/audit-logs/export?${params}`, `audit-log.${format}`);
}

export function verifyAuditLog(signal?: AbortSignal) {
  return apiRequest('/api/audit-logs/verify', { schema: auditVerificationSchema, signal });
}
