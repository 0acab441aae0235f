import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AuditLog } from '../../contract/audit';
import { renderView } from '../../testing/render';
import { AuditEntryDetail } from './audit-entry-detail';
import { AuditView } from './audit-view';

const entry = (seq: number, fields: Partial<AuditLog> = {}): AuditLog => ({
  id: `id-${seq}`,
  seq,
  time: '2026-12-01T10:00:00.000Z',
  user_id: 'u1',
  user_name: 'ada@example.com',
  auth_method: 'cookie',
  api_key_name: null,
  ip: '10.0.0.7',
  action: 'write',
  resource_type: 'user',
  resource_id: 'u2',
  resource_target: 'bob@example.com',
  result: 'done',
  reason: null,
  diff: { role: { old: 'member', new: 'admin', secret: false } },
  prev_hash: '0'.repeat(64),
  hash: 'ab'.repeat(32),
  ...fields,
});

describe('AuditView', () => {
  it('lists who did what on what, how it ended and from where, and opens an entry', async () => {
    const onOpen = vi.fn();
    const refused = entry(2, {
      action: 'login',
      resource_type: 'session',
      result: 'refused',
      user_name: null,
      user_id: null,
      resource_target: null,
    });
    const { user } = renderView(<AuditView entries={[refused, entry(1)]} count={5} onOpen={onOpen} />);
    expect(screen.getByText('2 of 5 entries')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Audit log' }))
      .getAllByRole('row')
      .filter((row) => row.dataset.seq);
    expect(rows.map((row) => row.dataset.seq)).toEqual(['2', '1']);
    expect(within(rows[0]!).getByText('unknown')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('sign in')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('refused')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('user · bob@example.com')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('10.0.0.7')).toBeInTheDocument();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Entry 1' }));
    expect(onOpen).toHaveBeenCalledWith(entry(1));
  });

  it('says when nothing matches', () => {
    renderView(<AuditView entries={[]} count={0} onOpen={vi.fn()} />);
    expect(screen.getByText('Nothing recorded matches these filters.')).toBeInTheDocument();
  });
});

describe('AuditEntryDetail', () => {
  it('shows each field before and after, a secret only by name, and how the actor signed in', () => {
    const detail = entry(3, {
      auth_method: 'api_key',
      api_key_name: 'ci',
      diff: {
        llm_model: { old: 'a', new: 'b', secret: false },
        llm_api_key: { old: null, new: null, secret: true },
      },
    });
    renderView(<AuditEntryDetail entry={detail} />);
    expect(screen.getByText('API key (ci)')).toBeInTheDocument();
    const changes = within(screen.getByRole('table', { name: 'Changes' })).getAllByRole('row');
    expect(changes.map((row) => row.textContent)).toEqual([
      'FieldBeforeAfter',
      'llm_modelab',
      'llm_api_keyA secret: changed, its value is not recorded',
    ]);
  });
});
