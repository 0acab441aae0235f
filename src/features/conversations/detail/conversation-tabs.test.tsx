import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderView } from '../../../testing/render';
import { ConversationTabs } from './conversation-tabs';

describe('ConversationTabs', () => {
  it('offers Changes and Files beside the conversation when the server reads workspaces, and nothing else otherwise', async () => {
    const onTab = vi.fn();
    const { user, rerender } = renderView(
      <ConversationTabs tab="conversation" onTab={onTab} conversation={<p>events</p>} changes={<p>changes</p>} files={<p>files</p>} />,
    );
    expect(screen.getByText('events')).toBeInTheDocument();
    expect(screen.queryByText('changes')).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Changes' }));
    expect(onTab).toHaveBeenCalledWith('changes');
    rerender(<ConversationTabs tab="conversation" onTab={onTab} conversation={<p>events</p>} />);
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.getByText('events')).toBeInTheDocument();
  });
});
