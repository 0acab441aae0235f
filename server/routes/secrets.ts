import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailErrorSchema, legacyErrorSchema, messageSchema } from '../../src/contract/errors';
import {
  createSecretSchema,
  customSecretsSchema,
  gitProviderStatusesSchema,
  providerPathSchema,
  secretPathSchema,
  tokenCheckSchema,
  updateSecretSchema,
} from '../../src/contract/secrets';
import { addGitProvidersRequestSchema } from '../http/requests';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SecretsService } from '../services/secrets/secrets-service';

const validation = { 422: validationErrorBodySchema };

export function secretsRoutes(secrets: SecretsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/add-git-providers',
      {
        schema: {
          summary: 'Store git provider tokens (the set is replaced; an empty token keeps the stored one)',
          tags: ['Git providers'],
          body: addGitProvidersRequestSchema,
          response: { 200: messageSchema, ...validation },
        },
      },
      async (request) => {
        await secrets.replaceProviderTokens(request.caller, request.body.provider_tokens);
        return { message: 'Git providers stored' };
      },
    );

    app.post(
      '/unset-provider-tokens',
      {
        schema: {
          summary: 'Remove every git provider token (custom secrets stay)',
          tags: ['Git providers'],
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        await secrets.unsetProviderTokens(request.caller);
        return { message: 'Unset Git provider tokens' };
      },
    );

    app.get(
      '/git-providers',
      {
        schema: {
          summary: 'Connected git providers: host and when the provider last accepted the token (ours; never the token)',
          tags: ['Git providers'],
          response: { 200: gitProviderStatusesSchema },
        },
      },
      async (request) => ({ providers: await secrets.providerStatuses(request.caller) }),
    );

    app.post(
      '/git-providers/:provider/verify',
      {
        schema: {
          summary: 'Ask the provider about the stored token now and return its verdict (ours; never the token)',
          tags: ['Git providers'],
          params: providerPathSchema,
          response: { 200: tokenCheckSchema, 404: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => secrets.checkProviderToken(request.caller, request.params.provider),
    );

    app.get(
      '/secrets',
      {
        schema: { summary: 'List custom secrets (names and descriptions only)', tags: ['Secrets'], response: { 200: customSecretsSchema } },
      },
      async (request) => secrets.listCustomSecrets(request.caller),
    );

    app.post(
      '/secrets',
      {
        schema: {
          summary: 'Create a custom secret',
          tags: ['Secrets'],
          body: createSecretSchema,
          response: { 201: messageSchema, 400: messageSchema, ...validation },
        },
      },
      async (request, reply) => {
        await secrets.createCustomSecret(request.caller, request.body);
        return reply.status(201).send({ message: 'Secret created successfully' });
      },
    );

    app.put(
      '/secrets/:name',
      {
        schema: {
          summary: 'Rename, describe or change the value of a custom secret',
          tags: ['Secrets'],
          params: secretPathSchema,
          body: updateSecretSchema,
          response: { 200: messageSchema, 400: messageSchema, 404: legacyErrorSchema, ...validation },
        },
      },
      async (request) => {
        await secrets.updateCustomSecret(request.caller, request.params.name, request.body);
        return { message: 'Secret updated successfully' };
      },
    );

    app.delete(
      '/secrets/:name',
      {
        schema: {
          summary: 'Delete a custom secret',
          tags: ['Secrets'],
          params: secretPathSchema,
          response: { 200: messageSchema, 404: legacyErrorSchema },
        },
      },
      async (request) => {
        await secrets.deleteCustomSecret(request.caller, request.params.name);
        return { message: 'Secret deleted successfully' };
      },
    );
  };
}
