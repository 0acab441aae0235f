import type { SandboxSpec } from '../../src/contract/sandboxes';
import { type TokenVerifier, verifyTokenOverHttp } from '../git-providers/token-verifier';
import type { SecretBox } from '../secret-box';
import type { Db } from '../store/database';
import { SandboxesStore } from '../store/sandboxes-store';
import { SecretsStore } from '../store/secrets-store';
import { SettingsStore } from '../store/settings-store';
import { McpTestService } from './mcp-test-service';
import { type SandboxLimits, SandboxService } from './sandbox-service';
import { SecretsService } from './secrets-service';
import { SettingsService } from './settings-service';

export interface ApiServices {
  settings: SettingsService;
  secrets: SecretsService;
  mcpTest: McpTestService;
  sandboxes: SandboxService;
}

export interface ServiceOptions {
  /** Sandbox directories live under here; it also names the processes MCP tests start. */
  dataDir: string;
  sandboxSpecs: SandboxSpec[];
  sandboxLimits: SandboxLimits;
  /** Checks new git provider tokens with the provider: `true` for the real HTTP check. */
  verifyGitTokens?: boolean | TokenVerifier;
}

/** Wires each service to its store; the one place where the object graph is built. */
export function createServices(db: Db, box: SecretBox, options: ServiceOptions): ApiServices {
  const verify = options.verifyGitTokens === true ? verifyTokenOverHttp : options.verifyGitTokens || null;
  const secrets = new SecretsService(new SecretsStore(db), box, verify);
  const settings = new SettingsService(new SettingsStore(db), box, secrets);
  const sandboxes = new SandboxService(new SandboxesStore(db), box, options.sandboxSpecs, options.dataDir, options.sandboxLimits);
  return { settings, secrets, mcpTest: new McpTestService(settings, options.dataDir), sandboxes };
}
