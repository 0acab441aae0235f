import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { detailErrorSchema } from '../../src/contract/errors';
import { solvabilityEstimateSchema, solvabilityRequestSchema } from '../../src/contract/suggested-tasks';
import { validationErrorBodySchema } from '../../src/contract/validation-detail';
import type { SolvabilityService } from '../services/git/solvability-service';

export function solvabilityRoutes(solvability: SolvabilityService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/user/solvability',
      {
        schema: {
          summary: "How likely the agent is to resolve an issue on its own, and why, as the user's LLM estimates it (our extension)",
          description:
            "The issue by its address on a connected GitHub, GitLab or Bitbucket (`issue_url`), or by `git_provider`, `repo` and `issue_number`. Its text is read with the user's token and given to the model in the user's settings. An address that names no issue of a connected provider 422; no LLM set up, or `enable_solvability_analysis` off, 409; no such issue 404; the provider or the LLM failing 503 with why.",
          tags: ['Git'],
          body: solvabilityRequestSchema,
          response: {
            200: solvabilityEstimateSchema,
            404: detailErrorSchema,
            409: detailErrorSchema,
            422: validationErrorBodySchema,
            503: detailErrorSchema,
          },
        },
      },
      async (request) => solvability.estimate(request.caller, request.body),
    );
  };
}
