import * as z from 'zod/mini';
import { mcpConfigOf, mcpShttpServerSchema, mcpSseServerSchema, mcpStdioServerSchema, mcpTestOf } from '../../src/contract/mcp';
import { type Expanded, expandArgs, expandEnv, expandServer } from './mcp-shorthands';
import { pickDefaults } from '../../src/contract/organization-defaults';
import { addGitProvidersSchema } from '../../src/contract/secrets';
import { settingsUpdateSchema } from '../../src/contract/settings-update';

/*
 * The bodies the server takes beyond what the console sends: OpenHands' MCP shorthands are
 * accepted too. Only the server loads this: the console sends the full forms.
 */

/** `schema` after `expand`, whose problem is a value error at that place. */
const expanding = <T extends z.ZodMiniType>(expand: (value: unknown) => Expanded, schema: T) =>
  z.pipe(
    z.transform((value: unknown, ctx) => {
      const expanded = expand(value);
      if ('value' in expanded) return expanded.value;
      ctx.issues.push({ code: 'custom', message: expanded.problem, input: value });
      return z.NEVER;
    }),
    schema,
  );

export const mcpStdioServerRequestSchema = z.extend(mcpStdioServerSchema, {
  args: z._default(expanding(expandArgs, mcpStdioServerSchema.shape.args), []),
  env: z._default(expanding(expandEnv, mcpStdioServerSchema.shape.env), {}),
});

/** `mcp_config` in a request: servers may also be a URL string (SSE, SHTTP), `args` a command line, `env` `"A=1,B=2"`. */
export const mcpConfigRequestSchema = mcpConfigOf(
  expanding(expandServer, mcpSseServerSchema),
  mcpStdioServerRequestSchema,
  expanding(expandServer, mcpShttpServerSchema),
);

/** The body the server takes: a stdio entry may use the `args` and `env` shorthands. */
export const mcpTestRequestSchema = mcpTestOf(mcpStdioServerRequestSchema);

/** What the server takes for `POST /api/settings`: also OpenHands' MCP shorthands (see `mcpConfigRequestSchema`). */
export const settingsUpdateRequestSchema = z.extend(settingsUpdateSchema, { mcp_config: z.optional(z.nullable(mcpConfigRequestSchema)) });

/** What the server takes: also OpenHands' MCP shorthands in `mcp_config`. */
export const addGitProvidersRequestSchema = z.extend(addGitProvidersSchema, { mcp_config: z.optional(z.nullable(mcpConfigRequestSchema)) });

/** `PATCH /api/organizations/{org_id}/settings`: the defaults to change, MCP shorthands too, as a settings save takes them. */
export const organizationDefaultsUpdateSchema = z.strictObject(pickDefaults(settingsUpdateRequestSchema.shape));
