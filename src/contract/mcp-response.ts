import * as z from 'zod/mini';
import { integer } from './rules';

/*
 * `mcp_config` as a GET returns it and as our server stores it: the wire shapes, read leniently
 * so a server with older or looser data still loads. Apart from the request schemas (mcp.ts) and
 * their rules, which a page that only reads settings does not download.
 */

export const sseServerShape = { url: z.string(), api_key: z.optional(z.nullable(z.string())) };
export const shttpServerShape = { ...sseServerShape, timeout: z.optional(z.nullable(integer())) };
export const stdioServerShape = {
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
};

/** Our server returns `api_key: null` plus `api_key_set`; a real OpenHands server sends the key. */
const writeOnlyKey = { api_key_set: z.optional(z.boolean()) };

export const mcpConfigResponseSchema = z.object({
  sse_servers: z._default(z.array(z.object({ ...sseServerShape, ...writeOnlyKey })), []),
  stdio_servers: z._default(z.array(z.object(stdioServerShape)), []),
  shttp_servers: z._default(z.array(z.object({ ...shttpServerShape, ...writeOnlyKey })), []),
});
export type McpConfigResponse = z.output<typeof mcpConfigResponseSchema>;

/** `mcp_config` as our server stores it: the wire shapes without OpenHands' rules, so older or looser data still reads. */
export const mcpConfigStoredSchema = z.object({
  sse_servers: z._default(z.array(z.object(sseServerShape)), []),
  stdio_servers: z._default(
    z.array(z.object({ ...stdioServerShape, args: z._default(stdioServerShape.args, []), env: z._default(stdioServerShape.env, {}) })),
    [],
  ),
  shttp_servers: z._default(z.array(z.object({ ...shttpServerShape, timeout: z._default(z.nullable(integer()), 60) })), []),
});
