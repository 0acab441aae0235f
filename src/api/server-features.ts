import { SETTINGS_NOT_USED_EXTENSION } from '../contract/settings-not-used';

/*
 * What the server can do, read from its OpenAPI document (`GET /openapi.json`, open without a
 * key; OpenHands serves one too). A document that cannot be read means "assume it can".
 */

type JsonObject = Record<string, unknown>;

const member = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' ? (value as JsonObject)[key] : undefined;

const at = (value: unknown, ...keys: string[]): unknown => keys.reduce(member, value);

/** `{field: reason}`, or a list of names (an older server of ours), as names with their reasons ('' for none). */
function reasonsByName(value: unknown): Record<string, string> {
  if (Array.isArray(value)) return Object.fromEntries(value.filter((name) => typeof name === 'string').map((name) => [name, '']));
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** Follows a local `$ref` (`#/components/schemas/…`) to the schema it names. */
function resolve(document: unknown, schema: unknown): unknown {
  const ref = member(schema, '$ref');
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  return at(
    document,
    ...ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~')),
  );
}

/** Whether an object schema offers `property`, also through `allOf`/`anyOf`/`oneOf` (as Pydantic nests them). */
function offersProperty(document: unknown, schema: unknown, property: string, depth = 0): boolean {
  const resolved = resolve(document, schema);
  if (depth > 8 || resolved === undefined) return false;
  if (at(resolved, 'properties', property) !== undefined) return true;
  return ['allOf', 'anyOf', 'oneOf'].some((key) => {
    const parts = member(resolved, key);
    return Array.isArray(parts) && parts.some((part) => offersProperty(document, part, property, depth + 1));
  });
}

/** Which server the console talks to: ours, OpenHands, or one whose document could not be read. */
export type ServerKind = 'agent-console' | 'openhands' | 'unknown';

/**
 * What the server offers beyond what OpenHands and our server share. Against OpenHands the
 * console hides what it lacks (rather than failing) and works around what it does differently.
 */
export interface ServerFeatures {
  kind: ServerKind;
  /** `PUT /api/secrets/{name}` changes a value (OpenHands ignores `value` there and still responds 200). */
  secretValueUpdate: boolean;
  /** `GET …/{id}/events/stream` (ours); without it events come from polling `/api/v1/events/search`. */
  eventStream: boolean;
  /** `GET /api/v1/sandboxes/{id}/logs` (ours). */
  sandboxLogs: boolean;
  /** `POST /api/mcp/test` (ours). */
  mcpTest: boolean;
  /** `GET /api/v1/sandboxes/capacity` (ours; OpenHands answers 405 there). */
  sandboxCapacity: boolean;
  /** `GET /api/v1/app-conversations/{id}/workspace/…` (ours): a conversation's changes and files. */
  workspace: boolean;
  /** `GET /api/v1/app-conversations/by-sandbox` (ours): which conversations each sandbox serves. */
  conversationsBySandbox: boolean;
  /** `PATCH /api/v1/app-conversations/{id}` taking `archived` (ours; a newer OpenHands has the route, without it): archiving, alone and in bulk. */
  conversationArchive: boolean;
  /** `/api/v1/sandboxes/search` filters by `status__eq` and `sandbox_spec_id__eq` (OpenHands ignores both). */
  sandboxFilters: boolean;
  /** `/api/v1/app-conversations/search` takes `sort_order` (ours); OpenHands always sorts newest first. */
  conversationSort: boolean;
  /**
   * `POST …/{id}/send-message`, `pause`, `run` and `confirm` (ours); OpenHands' client talks to the
   * sandbox instead (a newer OpenHands has send-message alone, which is not enough to drive the agent).
   */
  agentControls: boolean;
  /** `sandbox_api_key` is stored as sent (ours); OpenHands stores a sent key as its mask `**********`. */
  sandboxApiKeyStored: boolean;
  /**
   * `POST /api/settings` stores the fields sent and keeps the others (ours); OpenHands replaces
   * the settings with the body, so a write to it carries every field, read right before.
   */
  partialSettingsUpdate: boolean;
  /** Settings fields the server stores but does not act on, each with why ('' when it gives none; ours names them, OpenHands none). */
  settingsNotUsed: Readonly<Record<string, string>>;
  /** `/api/organizations/{org_id}/members…` (ours, and a newer OpenHands'): the Users page. */
  team: boolean;
  /** `/api/keys` (ours, and OpenHands' SaaS): the API keys page. */
  apiKeys: boolean;
  /** `GET /sign-in/oidc` (ours, when OIDC_* set it up): sign-in with an identity provider. */
  identityProvider: boolean;
  /**
   * Suggested tasks come with the prompt that starts them, and `POST /api/user/solvability`
   * estimates an issue (ours): the Conversations page offers them to start from.
   */
  taskStarters: boolean;
  /** `GET /api/usage` (ours): the Usage page. */
  usage: boolean;
  /** `GET /api/v1/sandboxes/{id}/resources` (ours): what each sandbox uses. */
  sandboxResources: boolean;
}

/**
 * A server whose document cannot be read is assumed to be ours: everything shows, as before.
 * Settings are written whole, as either server takes them.
 */
export const ASSUMED: ServerFeatures = {
  kind: 'unknown',
  secretValueUpdate: true,
  eventStream: true,
  sandboxLogs: true,
  mcpTest: true,
  sandboxCapacity: true,
  workspace: true,
  conversationsBySandbox: true,
  conversationArchive: true,
  sandboxFilters: true,
  conversationSort: true,
  agentControls: true,
  sandboxApiKeyStored: true,
  partialSettingsUpdate: false,
  settingsNotUsed: {},
  team: true,
  apiKeys: true,
  identityProvider: false,
  taskStarters: true,
  usage: true,
  sandboxResources: true,
};

const OUR_STREAM = '/api/v1/app-conversations/{conversation_id}/events/stream';

/** The agent routes the conversation page drives (`src/api/agent.ts`). */
const AGENT_ACTIONS = ['send-message', 'pause', 'run', 'confirm'];

/** The names of a route's query parameters, `$ref`s followed. */
function queryParameters(document: unknown, route: unknown): string[] {
  const parameters = member(route, 'parameters');
  if (!Array.isArray(parameters)) return [];
  return parameters
    .map((parameter) => resolve(document, parameter))
    .filter((parameter) => member(parameter, 'in') === 'query')
    .map((parameter) => String(member(parameter, 'name')));
}

/** The features a server's OpenAPI document (`GET /openapi.json`, open without a key; OpenHands serves one too) shows. */
export function featuresFromDocument(document: unknown): ServerFeatures {
  const paths = member(document, 'paths');
  if (paths === undefined || paths === null || typeof paths !== 'object') return ASSUMED; // not an OpenAPI document
  const route = (path: string, method: string) => at(paths, path, method);
  const has = (path: string, method: string) => route(path, method) !== undefined;
  const requestBody = (path: string, method: string) => at(route(path, method), 'requestBody', 'content', 'application/json', 'schema');
  // Ours names the parameter {name}, OpenHands {secret_id}.
  const secretPath = Object.keys(paths).find((path) => /^\/api\/secrets\/\{[^}]+\}$/.test(path)) ?? '';
  const secretBody = requestBody(secretPath, 'put');
  const searchFilters = queryParameters(document, route('/api/v1/sandboxes/search', 'get'));
  // Only our server has the event stream route: it tells ours from OpenHands for `kind` and what follows from it.
  const ours = has(OUR_STREAM, 'get');
  return {
    kind: ours ? 'agent-console' : 'openhands',
    secretValueUpdate: offersProperty(document, secretBody, 'value'),
    eventStream: ours,
    sandboxLogs: has('/api/v1/sandboxes/{sandbox_id}/logs', 'get'),
    mcpTest: has('/api/mcp/test', 'post'),
    sandboxCapacity: has('/api/v1/sandboxes/capacity', 'get'),
    workspace: has('/api/v1/app-conversations/{conversation_id}/workspace/changes', 'get'),
    conversationsBySandbox: has('/api/v1/app-conversations/by-sandbox', 'get'),
    conversationArchive: offersProperty(document, requestBody('/api/v1/app-conversations/{conversation_id}', 'patch'), 'archived'),
    sandboxFilters: searchFilters.includes('status__eq') && searchFilters.includes('sandbox_spec_id__eq'),
    conversationSort: queryParameters(document, route('/api/v1/app-conversations/search', 'get')).includes('sort_order'),
    agentControls: AGENT_ACTIONS.every((action) => has(`/api/v1/app-conversations/{conversation_id}/${action}`, 'post')),
    sandboxApiKeyStored: ours,
    partialSettingsUpdate: ours,
    settingsNotUsed: reasonsByName(at(document, 'info', SETTINGS_NOT_USED_EXTENSION)),
    team: has('/api/organizations/{org_id}/members', 'get'),
    apiKeys: has('/api/keys', 'get'),
    identityProvider: has('/sign-in/oidc', 'get'),
    taskStarters: has('/api/user/solvability', 'post'),
    usage: has('/api/usage', 'get'),
    sandboxResources: has('/api/v1/sandboxes/{sandbox_id}/resources', 'get'),
  };
}
