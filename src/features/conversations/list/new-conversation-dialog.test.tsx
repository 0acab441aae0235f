import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../../testing/render';
import { NoModelNotice, toStartRequest } from './new-conversation-dialog';

const empty = { message: '', repository: '', branch: '', provider: '', model: '', sandbox: '' };

describe('toStartRequest', () => {
  it('leaves what is empty to the server', () => {
    expect(toStartRequest(empty)).toEqual({ trigger: 'gui' });
  });

  it('sends the message to run, the repository, branch, provider, model and a new sandbox from a spec', () => {
    expect(
      toStartRequest({
        message: '  Fix it\n',
        repository: ' octo/hello ',
        branch: 'main',
        provider: 'github',
        model: 'gpt-4o',
        sandbox: 'new:agent-server',
      }),
    ).toEqual({
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix it' }], run: true },
      selected_repository: 'octo/hello',
      selected_branch: 'main',
      git_provider: 'github',
      llm_model: 'gpt-4o',
      sandbox_spec_id: 'agent-server',
      trigger: 'gui',
    });
  });

  it('starts into an existing sandbox, and ignores a provider it does not know', () => {
    expect(toStartRequest({ ...empty, sandbox: 'existing:abc', provider: 'svn' })).toEqual({ sandbox_id: 'abc', trigger: 'gui' });
  });
});

describe('NoModelNotice', () => {
  it('links to Settings › LLM and offers the demo model', async () => {
    const onUseDemo = vi.fn();
    const { user } = renderView(
      <MemoryRouter>
        <NoModelNotice onUseDemo={onUseDemo} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'Settings › LLM' })).toHaveAttribute('href', '/settings#llm');
    await user.click(screen.getByRole('button', { name: 'Use the demo model' }));
    expect(onUseDemo).toHaveBeenCalled();
  });
});
