import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json, testQueryClient } from '../../testing/fake-api';
import { renderWithQueries } from '../../testing/render';
import { CreateKeyDialog } from './create-key-dialog';
import { PasswordSection } from './password-section';

describe('PasswordSection', () => {
  it('says a short new password and one typed differently twice at their inputs, and sends nothing', async () => {
    const api = fakeApi({});
    const { user } = renderWithQueries(<PasswordSection />, testQueryClient());
    await user.type(screen.getByLabelText('Current password'), 'old password');
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('New password again'), 'shorter');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByLabelText('New password')).toHaveAccessibleDescription(/Use at least 10 characters/);
    expect(screen.getByLabelText('New password again')).toHaveAccessibleDescription('The two passwords differ');
    expect(api.requests).toEqual([]);
  });

  it('shows the server’s refusal of the current password at it, with everything typed kept', async () => {
    fakeApi({
      'POST /change-password': () =>
        json(422, { detail: [{ type: 'value_error', loc: ['body', 'current_password'], msg: 'This is not your current password' }] }),
    });
    const { user } = renderWithQueries(<PasswordSection />, testQueryClient());
    await user.type(screen.getByLabelText('Current password'), 'not it at all');
    await user.type(screen.getByLabelText('New password'), 'a new horse battery');
    await user.type(screen.getByLabelText('New password again'), 'a new horse battery');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByLabelText('Current password')).toHaveAccessibleDescription('This is not your current password');
    expect(screen.getByLabelText('New password')).toHaveValue('a new horse battery');
  });
});

describe('CreateKeyDialog', () => {
  it('puts a 422 about the expiry at Expires and one about the name at Name', async () => {
    fakeApi({
      'POST /api/keys': () =>
        json(422, {
          detail: [
            { type: 'string_too_long', loc: ['body', 'name'], msg: 'String should have at most 100 characters' },
            { type: 'value_error', loc: ['body', 'expires_at'], msg: 'Value error, Too far ahead' },
          ],
        }),
    });
    const { user } = renderWithQueries(<CreateKeyDialog onClose={() => undefined} />, testQueryClient());
    await user.type(await screen.findByLabelText('Name'), 'deploy script');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByLabelText('Expires')).toHaveAccessibleDescription('Too far ahead');
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(/Must have at most 100 characters/);
    expect(screen.getByLabelText('Name')).toHaveValue('deploy script');
  });
});
