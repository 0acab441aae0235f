/**
 * Who may call each API route, in one table: the auth hook (server/http/auth.ts) reads it for
 * every request, and a test walks every route the server has against it, so a route added
 * without a line here fails that test. Which rows of a resource a caller sees is the services'
 * part (a member's own, an admin's everyone's); this table says only who may call at all.
 *
 * - `signed-in`: any active user (owner, admin, member); what they reach is scoped to them.
 * - `admin`: owners and admins (the rules between them are the team service's).
 * - `sandbox`: not a user at all: the route checks a sandbox's own key (the events webhook).
 */
export type RouteAccess = 'signed-in' | 'admin' | 'sandbox';

const ROUTE_ACCESS: Record<string, RouteAccess> = {
  'GET /api/settings': 'signed-in',
  'POST /api/settings': 'signed-in',
  'POST /api/llm/test': 'signed-in',
  'POST /api/mcp/test': 'signed-in',
  'POST /api/search/test': 'signed-in',
  'GET /api/options/models': 'signed-in',
  'GET /api/options/agents': 'signed-in',
  'GET /api/options/security-analyzers': 'signed-in',
  'GET /api/options/config': 'signed-in',
  'POST /api/add-git-providers': 'signed-in',
  'POST /api/unset-provider-tokens': 'signed-in',
  'GET /api/git-providers': 'signed-in',
  'POST /api/git-providers/:provider/verify': 'signed-in',
  'GET /api/secrets': 'signed-in',
  'POST /api/secrets': 'signed-in',
  'PUT /api/secrets/:name': 'signed-in',
  'DELETE /api/secrets/:name': 'signed-in',
  'GET /api/v1/sandboxes/search': 'signed-in',
  'GET /api/v1/sandboxes/capacity': 'signed-in',
  'GET /api/v1/sandboxes': 'signed-in',
  'POST /api/v1/sandboxes': 'signed-in',
  'DELETE /api/v1/sandboxes': 'signed-in',
  'POST /api/v1/sandboxes/:sandbox_id/pause': 'signed-in',
  'POST /api/v1/sandboxes/:sandbox_id/resume': 'signed-in',
  'DELETE /api/v1/sandboxes/:sandbox_id': 'signed-in',
  'GET /api/v1/sandboxes/:sandbox_id/logs': 'signed-in',
  'GET /api/v1/sandboxes/resources': 'signed-in',
  'GET /api/v1/sandboxes/:sandbox_id/resources': 'signed-in',
  'GET /api/usage': 'signed-in',
  'GET /api/usage/csv': 'signed-in',
  'GET /api/v1/sandbox-specs/search': 'signed-in',
  'GET /api/v1/sandbox-specs': 'signed-in',
  'POST /api/v1/app-conversations': 'signed-in',
  'GET /api/v1/app-conversations': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/continue-in-new-sandbox': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/continue-in-new-sandbox/stream': 'signed-in',
  'POST /api/v1/app-conversations/stream-start': 'signed-in',
  'GET /api/v1/app-conversations/start-tasks': 'signed-in',
  'GET /api/v1/app-conversations/start-tasks/search': 'signed-in',
  'GET /api/v1/app-conversations/start-tasks/count': 'signed-in',
  'GET /api/v1/app-conversations/search': 'signed-in',
  'GET /api/v1/app-conversations/by-sandbox': 'signed-in',
  'GET /api/v1/app-conversations/count': 'signed-in',
  'PATCH /api/v1/app-conversations/:conversation_id': 'signed-in',
  'DELETE /api/v1/app-conversations/:conversation_id': 'signed-in',
  'PATCH /api/conversations/:conversation_id': 'signed-in',
  'DELETE /api/conversations/:conversation_id': 'signed-in',
  'GET /api/conversations/:conversation_id': 'signed-in',
  'GET /api/conversations': 'signed-in',
  'POST /api/conversations': 'signed-in',
  'GET /api/conversations/:conversation_id/config': 'signed-in',
  'GET /api/user/info': 'signed-in',
  'GET /api/user/repositories': 'signed-in',
  'GET /api/user/search/repositories': 'signed-in',
  'GET /api/user/repository/branches': 'signed-in',
  'GET /api/user/search/branches': 'signed-in',
  'GET /api/user/installations': 'signed-in',
  'GET /api/user/suggested-tasks': 'signed-in',
  'POST /api/user/solvability': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/send-message': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/pause': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/run': 'signed-in',
  'POST /api/v1/app-conversations/:conversation_id/confirm': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/events/stream': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/workspace/changes': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/workspace/diff': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/workspace/files': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/workspace/file': 'signed-in',
  'GET /api/v1/app-conversations/:conversation_id/workspace/archive': 'signed-in',
  'GET /api/v1/events/search': 'signed-in',
  'GET /api/v1/events/count': 'signed-in',
  'GET /api/v1/events': 'signed-in',
  'POST /api/v1/webhooks/:sandbox_id/events/:conversation_id': 'sandbox',
  'GET /api/keys': 'signed-in',
  'POST /api/keys': 'signed-in',
  'GET /api/keys/current': 'signed-in',
  'DELETE /api/keys/:key_id': 'signed-in',
  'GET /api/organizations': 'signed-in',
  'GET /api/organizations/:org_id/me': 'signed-in',
  'GET /api/organizations/:org_id/members': 'admin',
  'GET /api/organizations/:org_id/members/count': 'admin',
  'POST /api/organizations/:org_id/members/invite': 'admin',
  'POST /api/organizations/:org_id/members/:user_id/invitation': 'admin',
  'PATCH /api/organizations/:org_id/members/:user_id': 'admin',
  'DELETE /api/organizations/:org_id/members/:user_id': 'admin',
  // Shared MCP servers' env values are in it, which only admins edit.
  'GET /api/organizations/:org_id/settings': 'admin',
  'PATCH /api/organizations/:org_id/settings': 'admin',
  'GET /api/audit-logs': 'admin',
  'GET /api/audit-logs/export': 'admin',
  'GET /api/audit-logs/verify': 'admin',
};

/**
 * The rule of the route a request matched ("METHOD /path" as declared; HEAD as its GET). A
 * request that matched no route (a 404 to be) needs a signed-in caller, so unknown paths reveal
 * nothing either.
 */
export function routeAccess(method: string, url: string | undefined): RouteAccess | undefined {
  if (url === undefined) return 'signed-in';
  return ROUTE_ACCESS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

/** The table's routes, for the test that it names every route the server has and no other. */
export const routesWithAccessRules = (): string[] => Object.keys(ROUTE_ACCESS);
