import fs from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { declaredSandboxSpecSchema, type SandboxRuntimeName, type SandboxSpec } from '../../src/contract/sandboxes';
import { toValidationDetail } from '../http/validation-detail';
import { readableMessage } from '../../src/contract/validation-detail';
import { ConfigError } from '../config';

export const AGENT_SERVER_SPEC_ID = 'agent-server';

/**
 * Where the build puts the agent server (`npm run build:agent`). The project root is two levels
 * up from this file (server/sandboxes/) and from the server's bundle (build/server/) alike.
 */
export const AGENT_SERVER_SCRIPT = path.resolve(import.meta.dirname, '../../build/agent-server/main.js');

/**
 * When `file` was last written, as a spec's `created_at`: a spec is created when what defines it
 * is written, not each time a server reads it, so the date is the same on every start and on
 * every instance that has the same file.
 */
function writtenAt(file: string): string | undefined {
  return fs.statSync(file, { throwIfNoEntry: false })?.mtime.toISOString();
}

/**
 * The sandbox specs: our agent server first (the default), then any declared in
 * SANDBOX_SPECS_FILE (a JSON list of `{id, command, initial_env, working_dir, image}`). A spec
 * with an `image` runs in a container: only the docker runtime has one. The agent server's spec
 * dates from when that agent server was built (the Unix epoch when it is not built: no sandbox
 * starts then anyway); the declared ones from when their file was written.
 */
export function loadSandboxSpecs(
  specsFile: string | undefined,
  { runtime = 'process', agentServerScript = AGENT_SERVER_SCRIPT }: { runtime?: SandboxRuntimeName; agentServerScript?: string } = {},
): SandboxSpec[] {
  const builtIn: SandboxSpec = {
    id: AGENT_SERVER_SPEC_ID,
    command: [process.execPath, agentServerScript],
    created_at: writtenAt(agentServerScript) ?? new Date(0).toISOString(),
    initial_env: {},
    working_dir: '',
  };
  if (!specsFile) return [builtIn];

  let declared: unknown;
  try {
    declared = JSON.parse(fs.readFileSync(specsFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(
      `SANDBOX_SPECS_FILE ${specsFile} cannot be read as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const result = z.array(declaredSandboxSpecSchema).safeParse(declared, { reportInput: true });
  if (!result.success) {
    const problems = toValidationDetail(result.error.issues).map((d) => `${d.loc.join('.')}: ${readableMessage(d)}`);
    throw new ConfigError(`SANDBOX_SPECS_FILE ${specsFile}: ${problems.join('; ')}`);
  }
  const created_at = writtenAt(specsFile) ?? new Date(0).toISOString();
  const specs = [builtIn, ...result.data.map((spec) => ({ ...spec, created_at }))];
  const ids = specs.map((spec) => spec.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated) throw new ConfigError(`SANDBOX_SPECS_FILE ${specsFile}: spec id "${repeated}" is used twice`);
  const inImage = specs.find((spec) => spec.image);
  if (inImage && runtime !== 'docker') {
    throw new ConfigError(`SANDBOX_SPECS_FILE ${specsFile}: spec "${inImage.id}" has an image, which needs SANDBOX_RUNTIME=docker`);
  }
  for (const spec of specs) {
    if (path.isAbsolute(spec.working_dir) || spec.working_dir.split(/[\\/]/).includes('..')) {
      throw new ConfigError(`SANDBOX_SPECS_FILE ${specsFile}: working_dir of "${spec.id}" must be a path inside the sandbox directory`);
    }
  }
  return specs;
}
