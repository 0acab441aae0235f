import type { Caller } from '../authz/caller';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Provider } from '../../src/contract/secrets';
import type { ApiServices } from '../services/create-services';
import type { PlannedConversation } from './conversation-plan';
import { GITLAB_HOST } from './settings-data';

/*
 * The team's repositories, as small git repositories in the demo's data dir. Conversations name
 * them as on GitHub and the self-hosted GitLab; the demo's sandboxes clone them from here (git's
 * `url.<base>.insteadOf` in each sandbox's git config), so every start clones for real, offline.
 */

export interface DemoRepository {
  provider: Provider;
  /** `owner/name`, as a conversation names it. */
  name: string;
  /** What a team's agent would get to work on in it. */
  files: Record<string, string>;
}

const skill = (what: string) => `---\ntriggers: []\n---\n${what}\n`;

export const REPOSITORIES: DemoRepository[] = [
  {
    provider: 'github',
    name: 'acme/storefront',
    files: {
      'README.md': '# Storefront\n\nThe Next.js web shop. `npm ci && npm run dev` serves it on :3000.\n',
      'package.json': '{\n  "name": "storefront",\n  "private": true,\n  "scripts": { "dev": "next dev", "test": "vitest run" }\n}\n',
      'app/page.tsx': 'export default function Home() {\n  return <main>Welcome to Acme</main>;\n}\n',
      '.openhands/setup.sh': 'echo "Using the cached node_modules of the base image"\n',
      '.openhands/skills/frontend-conventions.md': skill('Components live in app/ and use the design system; no inline styles.'),
    },
  },
  {
    provider: 'github',
    name: 'acme/payments-api',
    files: {
      'README.md': '# payments-api\n\nCharges, refunds and payouts over Stripe. `make test` runs the suite.\n',
      Makefile: 'test:\n\tgo test ./...\n',
      'internal/refunds/refund.go':
        'package refunds\n\n// Refund returns money for part or all of a charge.\ntype Refund struct{ ChargeID string; Amount int64 }\n',
      '.openhands/pre-commit.sh': 'gofmt -l . | (! grep .)\n',
      '.openhands/skills/payments-safety.md': skill('Never call live Stripe keys; tests use STRIPE_TEST_KEY.'),
      '.openhands/skills/go-style.md': skill('Errors are wrapped with fmt.Errorf("…: %w", err).'),
    },
  },
  {
    provider: 'github',
    name: 'acme/mobile-app',
    files: {
      'README.md': '# Mobile app\n\nReact Native (Expo). `npx expo start` runs it.\n',
      'App.tsx': 'export default function App() {\n  return null;\n}\n',
    },
  },
  {
    provider: 'github',
    name: 'acme/infra',
    files: {
      'README.md': '# infra\n\nTerraform for staging and production. Plans run in CI; nobody applies from a laptop.\n',
      'staging/main.tf': 'module "redis" {\n  source = "../modules/redis"\n  env    = "staging"\n}\n',
      '.openhands/skills/terraform.md': skill('Run terraform fmt and terraform validate; never terraform apply.'),
    },
  },
  {
    provider: 'github',
    name: 'acme/design-system',
    files: {
      'README.md': '# Design system\n\nTokens and React components, documented in Storybook.\n',
      'src/Button.tsx': 'export function Button(props: { children: string }) {\n  return <button>{props.children}</button>;\n}\n',
    },
  },
  {
    provider: 'gitlab',
    name: 'data/pipelines',
    files: {
      'README.md': '# pipelines\n\nAirflow DAGs and dbt models for the warehouse.\n',
      'dags/daily_sessions.py': 'from airflow.decorators import dag\n',
      '.openhands/skills/dbt.md': skill('Every model needs a unique and a not_null test on its key.'),
    },
  },
  {
    provider: 'gitlab',
    name: 'data/forecasting',
    files: {
      'README.md': '# forecasting\n\nDemand forecasting models. `pytest -q` runs the tests.\n',
      'train.py': 'def train(frame):\n    raise NotImplementedError\n',
    },
  },
];

const HOSTS: Partial<Record<Provider, string>> = { github: 'github.com', gitlab: GITLAB_HOST };

const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, {
    cwd,
    input,
    stdio: 'pipe',
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_AUTHOR_NAME: 'Maya Lindqvist',
      GIT_AUTHOR_EMAIL: 'maya.lindqvist@acme.example',
      GIT_COMMITTER_NAME: 'Maya Lindqvist',
      GIT_COMMITTER_EMAIL: 'maya.lindqvist@acme.example',
    },
  });

/** The branches of the pull requests that `plan`'s conversations work on, by repository: they exist before anyone checks them out. */
export function pullRequestBranches(plan: readonly PlannedConversation[]): Map<string, string[]> {
  const branches = new Map<string, string[]>();
  for (const { repository, branch, prNumber } of plan) {
    if (!repository || !branch || prNumber.length === 0) continue;
    branches.set(repository.name, [...(branches.get(repository.name) ?? []), branch]);
  }
  return branches;
}

/**
 * Makes each repository under `root` (`<host>/<owner>/<name>.git`), readable by the sandboxes'
 * users: `main`, and the `branches` named for it (see pullRequestBranches).
 */
export function createRepositories(root: string, branches: ReadonlyMap<string, readonly string[]> = new Map()): void {
  for (const repository of REPOSITORIES) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-console-demo-repo-'));
    try {
      git(work, ['init', '--quiet', '--initial-branch=main']);
      for (const [file, content] of Object.entries(repository.files)) {
        fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
        fs.writeFileSync(path.join(work, file), content);
      }
      git(work, ['add', '-A']);
      git(work, ['commit', '--quiet', '-m', 'Initial import']);
      // All in one git process: a pull request's branch starts where main is.
      const created = [...new Set(branches.get(repository.name))].map((branch) => `create refs/heads/${branch} HEAD\n`).join('');
      if (created) git(work, ['update-ref', '--stdin'], created);
      const bare = path.join(root, HOSTS[repository.provider]!, `${repository.name}.git`);
      fs.mkdirSync(path.dirname(bare), { recursive: true, mode: 0o755 });
      git(root, ['clone', '--quiet', '--bare', work, bare]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  // Sandboxes run as users of their own: they read the repositories, and may not change them.
  execFileSync('chmod', ['-R', 'a+rX', root]);
}

/**
 * Points the sandbox's git at a copy of the demo's repositories in its home (`home`), for the
 * clones that conversation starts make there: a sandbox in namespaces of its own sees nothing of
 * the data dir but its home.
 */
export async function cloneFromDemoRepositories(
  services: ApiServices,
  owner: Caller,
  sandboxId: string,
  root: string,
  home: string,
): Promise<void> {
  const copy = path.join(home, '.demo-repositories');
  fs.cpSync(root, copy, { recursive: true });
  const config = (...args: string[]) =>
    services.sandboxes.exec(owner, sandboxId, ['git', 'config', '--global', ...args], { cwd: '.', timeoutMs: 10_000 });
  // A path, not a file:// URL: git then clones by copying the files, not in the two processes of
  // its transport, which packed and unpacked every object again for each of the demo's clones.
  for (const host of Object.values(HOSTS)) await config('--add', `url.${copy}/${host}/.insteadOf`, `https://${host}/`);
  // The repositories belong to the demo's user, not the sandbox's.
  await config('--add', 'safe.directory', '*');
}
