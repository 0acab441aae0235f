/** The MCP server kinds that carry an API key. */
type KeyedKind = 'sse_servers' | 'shttp_servers';
type KeyedServer = { url: string; api_key?: string | null };
type WithChangedServers<M, Extra> = {
  [K in keyof M]: K extends KeyedKind ? (M[K] extends (infer S)[] ? Omit<S, keyof Extra> & Extra : never)[] : M[K];
};

/** Rewrites every SSE and SHTTP server of an `mcp_config` with the fields `change` returns for it. */
export function mapKeyedServers<M extends Record<KeyedKind, KeyedServer[]>, Extra extends object>(
  mcp: M,
  change: (server: KeyedServer, kind: KeyedKind) => Extra,
): WithChangedServers<M, Extra> {
  const changed = (kind: KeyedKind) => mcp[kind].map((server) => ({ ...server, ...change(server, kind) }));
  // The spread keeps each server's own fields; TypeScript can't follow that through `map`.
  return { ...mcp, sse_servers: changed('sse_servers'), shttp_servers: changed('shttp_servers') } as WithChangedServers<M, Extra>;
}
