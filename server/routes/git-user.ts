import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { gitUserSchema, repositoriesQuerySchema, repositorySchema, suggestedTaskSchema } from '../../src/contract/git-user';
import { detailErrorSchema } from '../../src/contract/errors';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { GitUserService } from '../services/git/git-user-service';

const tags = ['Git'];
const refusals = { 409: detailErrorSchema, 503: detailErrorSchema };

/** `/api/user/*`, which OpenHands' web client reads once a git token is stored. */
export function gitUserRoutes(gitUser: GitUserService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/user/info',
      {
        schema: {
          summary: 'Who the connected GitHub or GitLab token belongs to (404 when none is connected)',
          tags,
          response: { 200: gitUserSchema, 404: detailErrorSchema, ...refusals },
        },
      },
      async (request) => gitUser.user(request.caller),
    );

    app.get(
      '/user/repositories',
      {
        schema: {
          summary: "The connected provider's repositories of the user (empty without a token, or when the provider cannot be reached)",
          tags,
          querystring: repositoriesQuerySchema,
          response: { 200: z.array(repositorySchema), 409: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => gitUser.repositories(request.caller, request.query),
    );

    app.get(
      '/user/suggested-tasks',
      {
        schema: {
          summary: "The user's open pull requests and assigned issues (empty without a token, or when the provider cannot be reached)",
          tags,
          response: { 200: z.array(suggestedTaskSchema), 409: detailErrorSchema },
        },
      },
      async (request) => gitUser.suggestedTasks(request.caller),
    );
  };
}
