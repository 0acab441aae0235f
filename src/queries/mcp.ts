import { mutationOptions, queryOptions } from '@tanstack/react-query';
import { testMcpServer } from '../api/mcp';
import type { McpTestRequestInput } from '../contract/mcp';

export const mcpKeys = {
  all: ['mcp'] as const,
  tests: () => [...mcpKeys.all, 'test'] as const,
  test: (entry: McpTestRequestInput) => [...mcpKeys.tests(), entry] as const,
};

/** A test of a saved server, run when shown; each run starts real processes, so nothing is cached. */
export const savedMcpServerTestQuery = (entry: McpTestRequestInput) =>
  queryOptions({
    queryKey: mcpKeys.test(entry),
    queryFn: () => testMcpServer(entry),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** A test of an entry as typed in a form, run on request. */
export const testMcpServerMutation = () => mutationOptions({ mutationFn: (entry: McpTestRequestInput) => testMcpServer(entry) });
