import { msg } from '@lingui/core/macro';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { detailErrorSchema, messageSchema } from '../../src/contract/errors';
import {
  apiKeyCreateSchema,
  apiKeyIdParamsSchema,
  apiKeySchema,
  createdApiKeySchema,
  currentApiKeySchema,
  invitationRequestSchema,
  invitationResultSchema,
  renewedInvitationSchema,
  memberPageQuerySchema,
  memberPageSchema,
  memberParamsSchema,
  memberPatchSchema,
  memberSchema,
  orgIdParamsSchema,
} from '../../src/contract/team';
import { callerSchema, organizationPageSchema } from '../../src/contract/caller';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import { NotFound } from '../domain-errors';
import { i18nOf } from '../i18n/server-i18n';
import { cookieFreeHostAlternative } from '../http/session-cookie';
import type { ApiKeysService } from '../services/team/api-keys-service';
import type { TeamService } from '../services/team/team-service';
import type { SettingsService } from '../services/settings/settings-service';
import { organizationDefaultsSchema } from '../../src/contract/organization-defaults';
import { organizationDefaultsUpdateSchema } from '../http/requests';

const errors = { 403: detailErrorSchema, 404: detailErrorSchema, 409: detailErrorSchema, 422: validationErrorBodySchema };

/**
 * Where an invitation's token is read: the console's page, the token in the fragment (never sent
 * to a server or a log), on a host the session cookie may be set on.
 */
const invitationLink = (request: FastifyRequest, token: string) =>
  `${cookieFreeHostAlternative(request) ?? `${request.protocol}://${request.host}`}/join#token=${token}`;

/**
 * The team (OpenHands' `/api/organizations/…` shapes, for our one organisation) and each user's
 * API keys (`/api/keys`). Who may call which is server/http/route-access.ts's.
 */
export function teamRoutes(team: TeamService, keys: ApiKeysService, settings: SettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['Team'];
    const ourOrg = (orgId: string) => {
      if (orgId !== team.orgId) throw new NotFound(msg`Organization with id "${orgId}" not found`);
    };

    app.get(
      '/organizations',
      {
        schema: {
          summary: "The caller's organisations (ours has one: the server's team)",
          tags,
          response: { 200: organizationPageSchema },
        },
      },
      async () => ({ items: [{ id: team.orgId, name: 'Team' }], next_page_id: null, current_org_id: team.orgId }),
    );

    app.get(
      '/organizations/:org_id/me',
      {
        schema: {
          summary: 'Who the caller is, and their role',
          tags,
          params: orgIdParamsSchema,
          response: { 200: callerSchema, 404: detailErrorSchema },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        const user = await team.user(request.caller);
        return {
          user_id: request.caller.userId,
          email: user?.email ?? null,
          name: user?.name ?? null,
          role: request.caller.role,
          auth_type: request.caller.authType,
          org_id: team.orgId,
          has_password: Boolean(user?.password_hash),
        };
      },
    );

    app.get(
      '/organizations/:org_id/members',
      {
        schema: {
          summary: 'The team, in the order they joined (page_id is a page number; email narrows)',
          tags,
          params: orgIdParamsSchema,
          querystring: memberPageQuerySchema,
          response: { 200: memberPageSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        return team.members(request.caller, request.query);
      },
    );

    app.get(
      '/organizations/:org_id/members/count',
      {
        schema: {
          summary: 'How many users the team has',
          tags,
          params: orgIdParamsSchema,
          querystring: z.object({ email: z.optional(z.string()) }),
          response: { 200: z.number(), ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        return team.count(request.caller, request.query.email);
      },
    );

    app.post(
      '/organizations/:org_id/members/invite',
      {
        schema: {
          summary: 'Invite people by email: each gets a one-time link to set a password (in `link`, ours), valid 7 days',
          tags,
          params: orgIdParamsSchema,
          body: invitationRequestSchema,
          response: { 201: invitationResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        ourOrg(request.params.org_id);
        const { tokens, ...result } = await team.invite(request.caller, request.body.emails, request.body.role);
        const successful = result.successful.map((invitation) => {
          const token = tokens.get(invitation.id);
          return token ? { ...invitation, link: invitationLink(request, token) } : invitation;
        });
        const i18n = i18nOf(request);
        const failed = result.failed.map(({ email, error }) => ({ email, error: i18n._(error) }));
        return reply.status(201).send({ ...result, successful, failed });
      },
    );

    app.post(
      '/organizations/:org_id/members/:user_id/invitation',
      {
        schema: {
          summary: 'A new invitation link for someone who has not accepted yet (ours; the old link stops working)',
          tags,
          params: memberParamsSchema,
          response: { 200: renewedInvitationSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        const { token, expires_at } = await team.reinvite(request.caller, request.params.user_id);
        return { link: invitationLink(request, token), expires_at };
      },
    );

    app.patch(
      '/organizations/:org_id/members/:user_id',
      {
        schema: {
          summary:
            "Change a user's role, or disable them (ours: `status`; disabling ends their sessions and keys and pauses their sandboxes)",
          tags,
          params: memberParamsSchema,
          body: memberPatchSchema,
          response: { 200: memberSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        return team.patchMember(request.caller, request.params.user_id, request.body);
      },
    );

    app.delete(
      '/organizations/:org_id/members/:user_id',
      {
        schema: {
          summary: 'Delete a user: their keys, settings, secrets and tokens go; their conversations and sandboxes stay, paused, for admins',
          tags,
          params: memberParamsSchema,
          response: { 200: messageSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        await team.deleteMember(request.caller, request.params.user_id);
        return { message: 'Member removed successfully' };
      },
    );

    app.get(
      '/organizations/:org_id/settings',
      {
        schema: {
          summary: "The team's defaults for each user's settings (ours in this shape; keys only as whether they are set)",
          tags,
          params: orgIdParamsSchema,
          response: { 200: organizationDefaultsSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        return settings.readOrganizationDefaults(request.caller);
      },
    );

    app.patch(
      '/organizations/:org_id/settings',
      {
        schema: {
          summary: "Change the team's defaults: a user's own value overrides each; the team's MCP servers join every user's",
          tags,
          params: orgIdParamsSchema,
          body: organizationDefaultsUpdateSchema,
          response: { 200: organizationDefaultsSchema, ...errors },
        },
      },
      async (request) => {
        ourOrg(request.params.org_id);
        await settings.updateOrganizationDefaults(request.caller, request.body);
        return settings.readOrganizationDefaults(request.caller);
      },
    );

    app.get(
      '/keys',
      {
        schema: {
          summary: "The caller's API keys (never the keys themselves)",
          tags: ['API keys'],
          response: { 200: z.array(apiKeySchema) },
        },
      },
      async (request) => keys.list(request.caller),
    );

    app.post(
      '/keys',
      {
        schema: {
          summary: 'A new API key for the caller: the key is in this response only',
          tags: ['API keys'],
          body: apiKeyCreateSchema,
          response: { 200: createdApiKeySchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => keys.create(request.caller, request.body),
    );

    app.get(
      '/keys/current',
      {
        schema: {
          summary: 'The API key this request came with',
          tags: ['API keys'],
          response: {
            200: currentApiKeySchema,
            400: detailErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const { caller } = request;
        if (caller.apiKeyId === undefined) return reply.status(400).send({ detail: 'This request was not made with an API key' });
        const key = (await keys.list(caller)).find((k) => k.id === caller.apiKeyId);
        return { id: caller.apiKeyId, name: key?.name ?? null, org_id: team.orgId, user_id: caller.userId, auth_type: 'bearer' };
      },
    );

    app.delete(
      '/keys/:key_id',
      {
        schema: {
          summary: 'Delete one of the caller’s API keys: requests with it are refused from now',
          tags: ['API keys'],
          params: apiKeyIdParamsSchema,
          response: { 200: messageSchema, 404: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => {
        await keys.delete(request.caller, request.params.key_id);
        return { message: 'API key deleted successfully' };
      },
    );
  };
}
