import { sessionKeyCaller } from '../authz/caller';
import { DEMO_MODEL } from '../../src/contract/demo-model';
import { addGitProvidersSchema, createSecretSchema } from '../../src/contract/secrets';
import { settingsUpdateSchema } from '../../src/contract/settings-update';
import type { ApiServices } from '../services/create-services';

/*
 * What a small team's admin has set up: the demo model (so new conversations work without a key),
 * confirmation mode, MCP servers of every kind, GitHub and a self-hosted GitLab, and the secrets
 * their agents need. Every value is made up; hosts are under `.example`, which never resolves.
 * Each body goes through the contract's schema, as the route's would.
 */

export const GITLAB_HOST = 'gitlab.acme.example';

const settings = settingsUpdateSchema.parse({
  language: 'en',
  llm_model: DEMO_MODEL,
  llm_base_url: null,
  max_iterations: 120,
  confirmation_mode: true,
  // The model rates each action: only the risky ones wait for approval.
  security_analyzer: 'llm',
  max_budget_per_task: 5,
  enable_default_condenser: true,
  condenser_max_size: 120,
  email: 'maya.lindqvist@acme.example',
  git_user_name: 'Acme Agent',
  git_user_email: 'agent@acme.example',
  search_api_key: 'tvly-demo-0000000000000000',
  sandbox_api_key: 'sbx-demo-0000000000000000',
  // Its git tokens are made up: no provider would suggest a task or show an issue.
  enable_proactive_conversation_starters: false,
  enable_solvability_analysis: false,
});

/** Its MCP servers: made up, so a conversation started with them says each is not available. */
const mcpServers = settingsUpdateSchema.parse({
  mcp_config: {
    sse_servers: [
      { url: 'https://mcp.linear.acme.example/sse', api_key: 'lin_demo_0000000000000000' },
      { url: 'https://sentry.acme.example/mcp/sse', api_key: 'sntrys_demo_0000000000000000' },
    ],
    shttp_servers: [
      { url: 'https://mcp.notion.acme.example/mcp', api_key: 'ntn_demo_0000000000000000', timeout: 60 },
      { url: 'https://grafana.acme.example/api/mcp', api_key: null, timeout: 30 },
    ],
    stdio_servers: [
      {
        name: 'filesystem',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/workspace'],
        env: {},
      },
      {
        name: 'postgres-readonly',
        command: 'uvx',
        args: ['mcp-server-postgres', '--read-only'],
        env: { DATABASE_URL: 'postgresql://readonly:demo-password@db.acme.example:5432/orders' },
      },
      { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], env: {} },
    ],
  },
});

/** Someone's GitHub and GitLab tokens (made up, and told apart by whose they are). */
export const gitProvidersOf = (who: string) =>
  addGitProvidersSchema.parse({
    provider_tokens: {
      github: { token: `ghp_demo${Buffer.from(who).toString('hex').slice(0, 32).padEnd(32, '0')}`, host: null },
      gitlab: { token: `glpat-demo${Buffer.from(who).toString('hex').slice(0, 16).padEnd(16, '0')}`, host: GITLAB_HOST },
    },
  }).provider_tokens;

const customSecrets = [
  { name: 'NPM_TOKEN', value: 'npm_demo0000000000000000000000000000', description: 'Read-only token for the private npm registry' },
  { name: 'SENTRY_AUTH_TOKEN', value: 'sntrys_demo_0000000000000000', description: 'Uploads source maps on release builds' },
  { name: 'STRIPE_TEST_KEY', value: 'sk_test_demo0000000000000000', description: 'Stripe test mode only, for payments-api tests' },
  { name: 'DATADOG_API_KEY', value: 'dd-demo-00000000000000000000', description: null },
  { name: 'STAGING_DB_URL', value: 'postgresql://agent:demo@staging-db.acme.example/orders', description: 'Staging database, read/write' },
].map((secret) => createSecretSchema.parse(secret));

/**
 * The MCP servers, once the seeded conversations have started: every conversation started from
 * then on has them as tools (none of them answers), and the seeded ones are not about that.
 */
export async function seedMcpServers(services: ApiServices): Promise<void> {
  await services.settings.update(sessionKeyCaller, mcpServers);
}

/** Settings (but the MCP servers), git providers and custom secrets, through the services their routes call. */
export async function seedSettings(services: ApiServices): Promise<void> {
  await services.settings.update(sessionKeyCaller, settings);
  await services.secrets.replaceProviderTokens(sessionKeyCaller, gitProvidersOf('owner'));
  for (const secret of customSecrets) await services.secrets.createCustomSecret(sessionKeyCaller, secret);
}
