import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OPTION_KINDS, optionNamesSchema, serverConfigSchema } from '../../src/contract/options';
import type { OptionsService } from '../services/settings/options-service';

const SUMMARIES = {
  models: 'Models Settings suggests (those with a known price, and the demo model)',
  agents: 'Agents the agent server can run',
  'security-analyzers': 'Security analyzers the agent server has',
} as const;

export function optionsRoutes(options: OptionsService): FastifyPluginAsyncZod {
  return async (app) => {
    for (const kind of OPTION_KINDS) {
      app.get(
        `/options/${kind}`,
        { schema: { summary: SUMMARIES[kind], tags: ['Settings'], response: { 200: optionNamesSchema } } },
        async () => options.list(kind),
      );
    }
    app.get(
      '/options/config',
      {
        schema: {
          summary: "What OpenHands' web client reads first: the server's mode (always oss) and feature flags (all off)",
          tags: ['Settings'],
          response: { 200: serverConfigSchema },
        },
      },
      async () => options.config(),
    );
  };
}
