import { i18n } from '@lingui/core';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SandboxInfo } from '../../contract/sandboxes';
import { notifyStarted } from './notices';

const sandbox = (status: SandboxInfo['status'], status_detail: string | null = null): SandboxInfo => ({
  id: 'abc',
  status,
  status_detail,
  created_by_user_id: null,
  sandbox_spec_id: 'broken',
  session_api_key: null,
  exposed_urls: null,
  created_at: '2026-11-26T10:00:00Z',
});

afterEach(() => vi.restoreAllMocks());

describe('notifyStarted', () => {
  it('says a start that returned ERROR did not start, with the reason, and stays until closed', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    notifyStarted(i18n, sandbox('ERROR', 'The process exited with code 3: config file missing'));
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]![0]).toMatchObject({
      color: 'red',
      title: 'Sandbox did not start',
      message: 'abc from broken: The process exited with code 3: config file missing',
      autoClose: false,
    });
  });

  it('says a start that runs or starts did start', () => {
    const show = vi.spyOn(notifications, 'show').mockReturnValue('');
    notifyStarted(i18n, { ...sandbox('STARTING'), paused_sandbox_ids: [] });
    expect(show.mock.calls.map(([data]) => data.title)).toEqual(['Sandbox started']);
  });
});
