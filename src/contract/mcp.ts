import { msg } from '@lingui/core/macro';
import * as z from 'zod/mini';
import {
  customIssue,
  ENV_NAME_PATTERN,
  integer,
  MAX_ARGS,
  MAX_ENV_ENTRIES,
  MAX_MCP_SERVERS_PER_KIND,
  MAX_NAME_LENGTH,
  mcpUrlProblem,
  processText,
  processTextProblem,
  rule,
} from './rules';
import { sseServerShape, shttpServerShape, stdioServerShape } from './mcp-response';

export { type McpConfigResponse, mcpConfigResponseSchema, mcpConfigStoredSchema } from './mcp-response';

/*
 * MCP server configuration, `mcp_config` of the settings (OpenHands `MCPConfig`). Two layers:
 * the wire shape (what a GET returns, read leniently so a server with older or looser data still
 * loads) and the request schemas, which add OpenHands' rules and messages on top.
 */

const SERVER_NAME = /^[a-zA-Z0-9_-]+$/;

const url = z.string().check(z.trim(), rule(mcpUrlProblem));

const serverName = z.string().check(
  z.trim(),
  z.maxLength(MAX_NAME_LENGTH),
  rule((name: string) => {
    if (name === '') return msg`Server name cannot be empty`;
    if (!SERVER_NAME.test(name)) return msg`Server name can only contain letters, numbers, hyphens, and underscores`;
    return undefined;
  }),
);

const command = z.string().check(
  z.trim(),
  rule((cmd: string) => {
    if (cmd === '') return msg`Command cannot be empty`;
    if (cmd.includes(' ')) return msg`Command should be a single executable without spaces (use arguments field for parameters)`;
    return processTextProblem(cmd);
  }),
);

const timeout = integer().check(
  rule((seconds: number) => {
    if (seconds <= 0) return msg`Timeout must be positive`;
    if (seconds > 3600) return msg`Timeout cannot exceed 3600 seconds`;
    return undefined;
  }),
);

/** OpenHands' words; the name comes quoted, as the console finds the row by it (ICU would read '{' quoted). */
const invalidEnvName = (name: string) =>
  msg`Invalid environment variable name ${name}. Must start with letter or underscore, contain only alphanumeric characters and underscores`;

/** OpenHands validates env keys only in its `K=V` string form; we check the object form too. */
const env = z.record(z.string(), z.string()).check(
  z.superRefine((vars, ctx) => {
    const keys = Object.keys(vars);
    if (keys.length > MAX_ENV_ENTRIES) {
      ctx.addIssue(customIssue(msg`At most ${MAX_ENV_ENTRIES} environment variables`, { input: null }));
      return;
    }
    for (const key of keys) {
      const problem =
        key === ''
          ? msg`Environment variable key cannot be empty`
          : key.length > MAX_NAME_LENGTH
            ? msg`Environment variable names have at most ${MAX_NAME_LENGTH} characters`
            : ENV_NAME_PATTERN.test(key)
              ? undefined
              : invalidEnvName(`'${key}'`);
      if (problem) ctx.addIssue(customIssue(problem, { input: vars }));
      // The same words as NUL_PROBLEM's after the key: the console finds the value's row by them.
      if (processTextProblem(vars[key]!)) {
        ctx.addIssue(
          customIssue(msg`${key}: Must not contain a NUL character (\\0): no process can be given one`, { path: [key], input: null }),
        );
      }
    }
  }),
);

// --- request schemas (POST), with OpenHands' rules ---

export const mcpSseServerSchema = z.object({ ...sseServerShape, url });
export const mcpShttpServerSchema = z.object({
  ...shttpServerShape,
  url,
  timeout: z._default(z.nullable(timeout), 60),
});
export const mcpStdioServerSchema = z.object({
  ...stdioServerShape,
  name: serverName,
  command,
  args: z._default(z.array(processText()).check(z.maxLength(MAX_ARGS)), []),
  env: z._default(env, {}),
});

export type McpSseServer = z.output<typeof mcpSseServerSchema>;
export type McpShttpServer = z.output<typeof mcpShttpServerSchema>;
export type McpStdioServer = z.output<typeof mcpStdioServerSchema>;

/** Duplicates make a server ambiguous (which one did the agent call?), so they are refused. */
const noDuplicates = z.superRefine(
  (config: { sse_servers: McpSseServer[]; shttp_servers: McpShttpServer[]; stdio_servers: McpStdioServer[] }, ctx) => {
    const names = new Set<string>();
    config.stdio_servers.forEach((server, index) => {
      if (names.has(server.name)) {
        const quoted = `'${server.name}'`;
        ctx.addIssue(customIssue(msg`Duplicate MCP server name ${quoted}`, { input: server.name, path: ['stdio_servers', index, 'name'] }));
      }
      names.add(server.name);
    });
    const urls = new Set<string>();
    for (const kind of ['sse_servers', 'shttp_servers'] as const) {
      config[kind].forEach((server, index) => {
        if (urls.has(server.url)) {
          ctx.addIssue(customIssue(msg`Duplicate MCP server URLs are not allowed`, { input: server.url, path: [kind, index, 'url'] }));
        }
        urls.add(server.url);
      });
    }
  },
);

const serverList = <T extends z.ZodMiniType>(server: T) => z._default(z.array(server).check(z.maxLength(MAX_MCP_SERVERS_PER_KIND)), []);

export function mcpConfigOf<
  Sse extends z.ZodMiniType<McpSseServer>,
  Stdio extends z.ZodMiniType<McpStdioServer>,
  Shttp extends z.ZodMiniType<McpShttpServer>,
>(sse: Sse, stdio: Stdio, shttp: Shttp) {
  return z
    .strictObject({ sse_servers: serverList(sse), stdio_servers: serverList(stdio), shttp_servers: serverList(shttp) })
    .check(noDuplicates);
}

export const mcpConfigSchema = mcpConfigOf(mcpSseServerSchema, mcpStdioServerSchema, mcpShttpServerSchema);
export type McpConfig = z.output<typeof mcpConfigSchema>;
export type McpConfigInput = z.input<typeof mcpConfigSchema>;

// --- connection test (`POST /api/mcp/test`, our extension) ---

export const MCP_KINDS = ['stdio', 'sse', 'shttp'] as const;
export type McpKind = (typeof MCP_KINDS)[number];

export const mcpTestOf = <Stdio extends z.ZodMiniObject>(stdio: Stdio) =>
  z.discriminatedUnion('kind', [
    z.extend(stdio, { kind: z.literal('stdio') }),
    z.extend(mcpSseServerSchema, { kind: z.literal('sse') }),
    z.extend(mcpShttpServerSchema, { kind: z.literal('shttp') }),
  ]);

/** One server entry exactly as in `mcp_config`, plus which kind it is. */
export const mcpTestSchema = mcpTestOf(mcpStdioServerSchema);
export type McpTestRequest = z.output<typeof mcpTestSchema>;
export type McpTestRequestInput = z.input<typeof mcpTestSchema>;

export const MCP_TEST_DEFAULT_SECONDS = 10;
export const MCP_TEST_MAX_SECONDS = 60;

export const mcpTestQuerySchema = z.object({
  /** Seconds the whole handshake may take (read from its query string by the server's lax pre-pass, `laxInput`). */
  timeout: z._default(integer().check(z.gte(1), z.lte(MCP_TEST_MAX_SECONDS)), MCP_TEST_DEFAULT_SECONDS),
});

export const mcpTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), tools: z.array(z.object({ name: z.string(), description: z.nullable(z.string()) })) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type McpTestResult = z.output<typeof mcpTestResultSchema>;
