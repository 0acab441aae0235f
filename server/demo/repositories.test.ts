import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planConversations } from './conversation-plan';
import { createRepositories, pullRequestBranches, REPOSITORIES } from './repositories';
import { GITLAB_HOST } from './settings-data';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const HOSTS: Record<string, string> = { github: 'github.com', gitlab: GITLAB_HOST };

describe("the demo's repositories", () => {
  it('have the branch of every pull request a conversation works on, so its checkout finds it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-repositories-'));
    roots.push(root);
    const plan = planConversations(new Date('2026-03-03T10:00:00Z'));
    createRepositories(root, pullRequestBranches(plan));
    const reviews = plan.filter((conversation) => conversation.prNumber.length > 0);
    expect(reviews.length).toBeGreaterThan(10);
    for (const { repository, branch, prNumber } of reviews) {
      expect(branch).toBe(`pr-${prNumber[0]}`);
      const provider = REPOSITORIES.find((known) => known.name === repository!.name)!.provider;
      const bare = path.join(root, HOSTS[provider]!, `${repository!.name}.git`);
      expect(execFileSync('git', ['branch', '--list', branch!], { cwd: bare, encoding: 'utf8' }).trim()).toBe(branch);
    }
  });
});
