import type { SecretBox } from '../secret-box';
import type { Db } from '../store/database';
import { SettingsStore } from '../store/settings-store';
import { McpTestService } from './mcp-test-service';
import { SettingsService } from './settings-service';

export interface ApiServices {
  settings: SettingsService;
  mcpTest: McpTestService;
}

/** Wires each service to its store; the one place where the object graph is built. */
export function createServices(db: Db, secrets: SecretBox): ApiServices {
  const settings = new SettingsService(new SettingsStore(db), secrets);
  return { settings, mcpTest: new McpTestService(settings) };
}
