import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  branchesQuerySchema,
  branchSchema,
  branchSearchQuerySchema,
  gitUserSchema,
  installationsQuerySchema,
  paginatedBranchesSchema,
  repositoriesQuerySchema,
  repositorySchema,
  repositorySearchQuerySchema,
} from '../git-providers/git-user-schemas';
import { suggestedTasksSchema } from '../../src/contract/suggested-tasks';
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
          summary: 'Who the connected GitHub, GitLab or Bitbucket token belongs to (404 when none is connected)',
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
      '/user/search/repositories',
      {
        schema: {
          summary:
            "The user's repositories, and their organisations', whose name has the query in it; a repository's address finds it (empty without a token, or when the provider cannot be reached)",
          tags,
          querystring: repositorySearchQuerySchema,
          response: { 200: z.array(repositorySchema), 409: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => gitUser.searchRepositories(request.caller, request.query),
    );

    app.get(
      '/user/repository/branches',
      {
        schema: {
          summary: "A page of a repository's branches (none without a token, or when the provider cannot be reached)",
          tags,
          querystring: branchesQuerySchema,
          response: { 200: paginatedBranchesSchema, 409: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => gitUser.branches(request.caller, request.query),
    );

    app.get(
      '/user/search/branches',
      {
        schema: {
          summary: "A repository's branches whose name has the query in it (empty without a token, or when the provider cannot be reached)",
          tags,
          querystring: branchSearchQuerySchema,
          response: { 200: z.array(branchSchema), 409: detailErrorSchema, 422: validationErrorBodySchema },
        },
      },
      async (request) => gitUser.searchBranches(request.caller, request.query),
    );

    app.get(
      '/user/installations',
      {
        schema: {
          summary:
            'The GitHub App installations the stored token may use, or the Bitbucket workspaces of its user, to list repositories by (empty without a token, or when the provider cannot be reached)',
          tags,
          querystring: installationsQuerySchema,
          response: { 200: z.array(z.string()), 422: validationErrorBodySchema },
        },
      },
      async (request) => gitUser.installations(request.caller, request.query.provider),
    );

    app.get(
      '/user/suggested-tasks',
      {
        schema: {
          summary:
            "Tasks from the user's GitHub, GitLab and Bitbucket: their open pull requests with merge conflicts, failing checks or unresolved review comments, and the open issues assigned to them (empty without a token, or when the provider cannot be reached)",
          description:
            "Ours beside OpenHands' fields: `branch` (the pull request's head branch, or the repository's default branch for an issue), `url` (its page on the provider) and `prompt` (the first message of a conversation that does the task).",
          tags,
          response: { 200: suggestedTasksSchema, 409: detailErrorSchema },
        },
      },
      async (request) => gitUser.suggestedTasks(request.caller),
    );
  };
}
