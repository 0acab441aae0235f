/*
 * The parts of OpenHands' OpenAPI document (pinned commit 156d068) the console reads to learn what
 * the server offers: which routes exist, the sandbox search's query parameters (no status or spec
 * filter), and the secret PUT body (no `value`). Routes it lacks are simply absent.
 */

const query = (...names: string[]) => names.map((name) => ({ name, in: 'query', required: false, schema: {} }));
const body = (ref: string) => ({ requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } } });

export const OPENHANDS_OPENAPI = {
  openapi: '3.1.0',
  info: { title: 'OpenHands', version: '0.62.0' },
  paths: {
    '/api/settings': { get: {}, post: body('Settings') },
    '/api/secrets': { get: {}, post: body('CustomSecretModel') },
    '/api/secrets/{secret_id}': { put: body('CustomSecretWithoutValueModel'), delete: {} },
    '/api/add-git-providers': { post: body('POSTProviderModel') },
    '/api/unset-provider-tokens': { post: {} },
    '/api/options/models': { get: {} },
    '/api/options/agents': { get: {} },
    '/api/options/security-analyzers': { get: {} },
    '/api/conversations/{conversation_id}': { get: {}, patch: {}, delete: {} },
    '/api/v1/app-conversations': { get: { parameters: query('ids') }, post: {} },
    '/api/v1/app-conversations/search': {
      get: { parameters: query('title__contains', 'created_at__gte', 'created_at__lt', 'page_id', 'limit') },
    },
    '/api/v1/app-conversations/count': { get: {} },
    '/api/v1/app-conversations/start-tasks': { get: {} },
    '/api/v1/app-conversations/start-tasks/search': { get: {} },
    '/api/v1/events/search': {
      get: { parameters: query('conversation_id__eq', 'kind__eq', 'timestamp__gte', 'timestamp__lt', 'sort_order', 'page_id', 'limit') },
    },
    '/api/v1/events/count': { get: {} },
    '/api/v1/events': { get: { parameters: query('id') } },
    '/api/v1/sandboxes/search': { get: { parameters: query('page_id', 'limit') } },
    '/api/v1/sandboxes': { get: { parameters: query('id') }, post: { parameters: query('sandbox_spec_id') } },
    '/api/v1/sandboxes/{sandbox_id}/pause': { post: {} },
    '/api/v1/sandboxes/{sandbox_id}/resume': { post: {} },
    // The path says {id} but the handler reads `sandbox_id` from the query (the bug the fake keeps).
    '/api/v1/sandboxes/{id}': { delete: { parameters: query('sandbox_id') } },
    '/api/v1/sandbox-specs/search': { get: {} },
  },
  components: {
    schemas: {
      Settings: { type: 'object', properties: {} },
      CustomSecretModel: { type: 'object', properties: { name: {}, description: {}, value: {} } },
      CustomSecretWithoutValueModel: { type: 'object', properties: { name: {}, description: {} } },
      POSTProviderModel: { type: 'object', properties: { mcp_config: {}, provider_tokens: {} } },
    },
  },
};
