import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Member } from '../../contract/team';
import { meKeys } from '../../queries/me';
import { fakeApi, json, testQueryClient } from '../../testing/fake-api';
import { renderWithQueries } from '../../testing/render';
import { InviteDialog } from './invite-dialog';
import { LimitsDialog } from './limits-dialog';

const MEMBERS = '/api/organizations/org-1/members';

function clientInOrg() {
  const client = testQueryClient();
  client.setQueryData(meKeys.org(), 'org-1');
  return client;
}

const mia: Member = {
  user_id: 'u-mia',
  email: 'mia@example.com',
  name: 'Mia',
  role: 'member',
  status: 'active',
  last_sign_in_at: null,
  running_sandboxes: 0,
  max_running_sandboxes: 2,
  max_sandboxes: null,
} as Member;

describe('InviteDialog', () => {
  it('names the addresses that are not addresses, and sends nothing', async () => {
    const api = fakeApi({});
    const { user } = renderWithQueries(<InviteDialog myRole="owner" onClose={() => undefined} />, clientInOrg());
    await user.type(await screen.findByLabelText('Email addresses'), 'ada@example.com, bob@, carol');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByLabelText('Email addresses')).toHaveAccessibleDescription(/Not an email address: bob@, carol/);
    expect(api.requests).toEqual([]);
  });

  it('shows a 422 about one of the list at the input, with what was typed kept', async () => {
    fakeApi({
      [`POST ${MEMBERS}/invite`]: () =>
        json(422, { detail: [{ type: 'value_error', loc: ['body', 'emails', 1], msg: 'Value error, This address is taken' }] }),
    });
    const { user } = renderWithQueries(<InviteDialog myRole="owner" onClose={() => undefined} />, clientInOrg());
    await user.type(await screen.findByLabelText('Email addresses'), 'ada@example.com bob@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const input = await screen.findByLabelText('Email addresses');
    expect(input).toHaveAccessibleDescription(/This address is taken/);
    expect(input).toHaveValue('ada@example.com bob@example.com');
  });
});

describe('LimitsDialog', () => {
  it('refuses what is not a number, as typed, instead of reading it as no limit', async () => {
    const api = fakeApi({});
    const { user } = renderWithQueries(<LimitsDialog member={mia} onClose={() => undefined} />, clientInOrg());
    await user.clear(await screen.findByLabelText('Running at once'));
    await user.type(screen.getByLabelText('Running at once'), '5e');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByLabelText('Running at once')).toHaveAccessibleDescription(/Must be/);
    expect(screen.getByLabelText('Running at once')).toHaveValue('5e');
    expect(api.requests).toEqual([]);
  });

  it('refuses a limit that is not a whole number before sending it', async () => {
    const api = fakeApi({});
    const { user } = renderWithQueries(<LimitsDialog member={mia} onClose={() => undefined} />, clientInOrg());
    await user.clear(await screen.findByLabelText('In all'));
    await user.type(screen.getByLabelText('In all'), '1.5');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByLabelText('In all')).toHaveAccessibleDescription(/Must be a valid integer/);
    expect(api.requests).toEqual([]);
  });

  it('puts a 422 at its limit and a refusal above the form, keeping what was typed', async () => {
    let answer = json(422, {
      detail: [{ type: 'less_than_equal', loc: ['body', 'max_sandboxes'], msg: 'Input should be less than or equal to 1000' }],
    });
    const api = fakeApi({ [`PATCH ${MEMBERS}/u-mia`]: () => answer });
    const { user } = renderWithQueries(<LimitsDialog member={mia} onClose={() => undefined} />, clientInOrg());
    expect(await screen.findByLabelText('Running at once')).toHaveValue('2');
    await user.type(screen.getByLabelText('In all'), '5');
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByLabelText('In all')).toHaveAccessibleDescription(/Must be less than or equal to 1000/);
    expect(api.requests.at(-1)?.body).toEqual({ max_running_sandboxes: 2, max_sandboxes: 5, monthly_cost_limit: null });

    answer = json(409, { detail: 'At least one active owner must remain' });
    await user.click(screen.getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The limits were not saved: At least one active owner must remain');
    expect(screen.getByLabelText('In all')).toHaveValue('5');
  });
});
