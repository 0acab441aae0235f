import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  auditExportQuerySchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  auditLogSchema,
  auditVerificationSchema,
} from '../../src/contract/audit';
import { detailErrorSchema } from '../../src/contract/errors';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { auditCsv } from '../services/audit/audit-csv';
import type { AuditService } from '../services/audit/audit-service';

const errors = { 403: detailErrorSchema, 422: validationErrorBodySchema };

/** The audit log (ours), for owners and admins: pages, exports and whether its chain holds. */
export function auditRoutes(audit: AuditService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Audit log'];

    app.get(
      '/audit-logs',
      {
        schema: {
          summary:
            'Audit log entries, newest first, with how many match (Coder’s shape). `q`: key:value filters (username, action, resource_type, resource_id, result, date_from, date_to)',
          tags,
          querystring: auditLogQuerySchema,
          response: { 200: auditLogPageSchema, ...errors },
        },
      },
      async (request) => audit.page(request.caller, request.query.q, request.query.offset, request.query.limit),
    );

    app.get(
      '/audit-logs/export',
      {
        schema: {
          summary: 'Every entry `q` matches, newest first, as a JSON list or CSV (`format`), as a download',
          tags,
          querystring: auditExportQuerySchema,
          response: { 200: z.array(auditLogSchema), ...errors },
        },
      },
      async (request, reply) => {
        const entries = await audit.export(request.caller, request.query.q);
        const csv = request.query.format === 'csv';
        reply.header('cache-control', 'no-store');
        reply.header('content-disposition', `attachment; filename="audit-log.${csv ? 'csv' : 'json'}"`);
        // The CSV text goes out as it is: its own serializer, not the JSON schema's.
        if (csv)
          return reply
            .type('text/csv; charset=utf-8')
            .serializer(String)
            .send(auditCsv(entries) as never);
        return entries;
      },
    );

    app.get(
      '/audit-logs/verify',
      {
        schema: {
          summary: 'Whether every entry is as written and linked to the one before it; if not, the first that is not',
          tags,
          response: { 200: auditVerificationSchema, 403: detailErrorSchema },
        },
      },
      async (request) => audit.verify(request.caller),
    );
  };
}
