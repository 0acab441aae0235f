import type { AuditService } from './audit-service';

/** What a service needs of the audit log: to record what it did. */
export type AuditRecorder = Pick<AuditService, 'record'>;

/** For services built without an audit log: records nothing. */
export const NO_AUDIT: AuditRecorder = { record: async () => undefined };
