import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Member } from '../../contract/team';
import { renderView, tooltipsArrived } from '../../testing/render';
import { assignableRoles, UsersView } from './users-view';

const member = (user_id: string, fields: Partial<Member> = {}): Member => ({
  user_id,
  email: `${user_id}@example.com`,
  role: 'member',
  status: 'active',
  name: user_id,
  last_sign_in_at: null,
  running_sandboxes: 0,
  ...fields,
});

const handlers = () => ({
  onInvite: vi.fn(),
  onRoleChange: vi.fn(),
  onStatusChange: vi.fn(),
  onNewLink: vi.fn(),
  onLimits: vi.fn(),
  onDelete: vi.fn(),
});

describe('assignableRoles', () => {
  it('follows the server’s rules: nobody changes themselves, admins never touch owners nor make them', () => {
    const me = 'me';
    expect(assignableRoles('owner', me, member(me, { role: 'owner' }))).toEqual([]);
    expect(assignableRoles('owner', me, member('x', { role: 'owner' }))).toEqual(['owner', 'admin', 'member']);
    expect(assignableRoles('admin', me, member('x', { role: 'owner' }))).toEqual([]);
    expect(assignableRoles('admin', me, member('x'))).toEqual(['admin', 'member']);
    expect(assignableRoles('member', me, member('x'))).toEqual([]);
    expect(assignableRoles('owner', me, member('x', { status: 'invited' }))).toEqual([]);
  });
});

describe('UsersView', () => {
  it('shows each user’s role, status, sign-in and running sandboxes, and what the viewer may do to them', async () => {
    const on = handlers();
    const { user } = renderView(
      <UsersView
        members={[
          member('me', { role: 'admin', name: 'Ada', last_sign_in_at: new Date().toISOString() }),
          member('owner', { role: 'owner', name: 'Olga' }),
          member('bob', { name: 'Bob', running_sandboxes: 2, max_running_sandboxes: 3 }),
          member('new', { name: null, status: 'invited' }),
          member('boss', { name: null, role: 'owner', status: 'invited' }),
        ]}
        myId="me"
        myRole="admin"
        {...on}
      />,
    );
    await tooltipsArrived();
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('(you)')).toBeVisible();
    expect(within(rows[0]!).queryByRole('button', { name: /Disable|Delete/ })).toBeNull();
    // An admin can neither change nor remove an owner.
    expect(within(rows[1]!).queryByRole('combobox', { name: 'Role of Olga' })).toBeNull();
    expect(within(rows[1]!).queryByRole('button', { name: 'Delete Olga' })).toBeNull();
    expect(within(rows[2]!).getAllByRole('cell')[4]).toHaveTextContent('2 of 3');
    await user.selectOptions(within(rows[2]!).getByRole('combobox', { name: 'Role of Bob' }), 'admin');
    expect(on.onRoleChange).toHaveBeenCalledWith(expect.objectContaining({ user_id: 'bob' }), 'admin');
    await user.click(screen.getByRole('button', { name: 'Disable Bob' }));
    expect(on.onStatusChange).toHaveBeenCalledWith(expect.objectContaining({ user_id: 'bob' }), 'disabled');
    expect(within(rows[3]!).getByText('invited')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'New invitation link for new@example.com' }));
    expect(on.onNewLink).toHaveBeenCalledWith(expect.objectContaining({ user_id: 'new' }));
    // An owner's invitation is an owner's to renew or withdraw: a new link would make the admin an owner.
    expect(within(rows[4]!).queryByRole('button', { name: /New invitation link|Delete/ })).toBeNull();
  });

  it('offers an invitation when the team is empty', async () => {
    const on = handlers();
    const { user } = renderView(<UsersView members={[]} myId="me" myRole="owner" {...on} />);
    await user.click(screen.getByRole('button', { name: 'Invite people' }));
    expect(on.onInvite).toHaveBeenCalled();
  });

  it('on a narrow screen, shows each user as a card with their status, role, sign-in, running sandboxes and actions', async () => {
    const on = handlers();
    const { user } = renderView(
      <UsersView
        layout="cards"
        members={[
          member('me', { role: 'owner', name: 'Ada' }),
          member('bob', { name: 'Bob', running_sandboxes: 2, max_running_sandboxes: 3 }),
        ]}
        myId="me"
        myRole="owner"
        {...on}
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    const [mine, bobs] = within(screen.getByRole('list', { name: 'Users' })).getAllByRole('listitem');
    expect(within(mine!).getByText('(you)')).toBeVisible();
    expect(within(mine!).queryByRole('button')).toBeNull();
    expect(bobs).toHaveTextContent('Bob');
    expect(bobs).toHaveTextContent('active');
    expect(bobs).toHaveTextContent('Last sign-in Never · Running sandboxes 2 of 3');
    await user.selectOptions(within(bobs!).getByRole('combobox', { name: 'Role of Bob' }), 'admin');
    expect(on.onRoleChange).toHaveBeenCalledWith(expect.objectContaining({ user_id: 'bob' }), 'admin');
    await user.click(within(bobs!).getByRole('button', { name: 'Disable Bob' }));
    expect(on.onStatusChange).toHaveBeenCalledWith(expect.objectContaining({ user_id: 'bob' }), 'disabled');
  });
});
