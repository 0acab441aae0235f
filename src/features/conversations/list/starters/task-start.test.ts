import { describe, expect, it } from 'vitest';
import { startRequestSchema } from '../../../../contract/conversations';
import { issueTask, suggestedTask } from './fixtures';
import { taskStartRequest } from './task-start';

describe('taskStartRequest', () => {
  it("starts a pull request's task on its branch with its prompt, the pull request's number with it", () => {
    const request = taskStartRequest(suggestedTask());
    expect(request).toEqual({
      initial_message: {
        role: 'user',
        content: [
          { type: 'text', text: 'You are working on Pull Request #12 in repository ada/engine. You need to fix the failing CI checks.' },
        ],
        run: true,
      },
      selected_repository: 'ada/engine',
      selected_branch: 'feature/fast-engine',
      git_provider: 'github',
      title: 'Fix failing checks: Faster engine',
      trigger: 'suggested_task',
      pr_number: [12],
    });
    // What the server takes.
    expect(startRequestSchema.safeParse(request).success).toBe(true);
  });

  it("starts an issue on the repository's default branch, and leaves the branch to the server when the provider named none", () => {
    expect(taskStartRequest(issueTask)).toMatchObject({
      selected_branch: 'main',
      title: 'Fix issue: Punch cards jam in the reader',
      pr_number: [],
    });
    expect(taskStartRequest({ ...issueTask, branch: null })).not.toHaveProperty('selected_branch');
  });
});
