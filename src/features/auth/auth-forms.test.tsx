import { act, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi, json } from '../../testing/fake-api';
import { renderView } from '../../testing/render';
import { JoinPage } from './join-screen';
import { PasswordSignIn } from './password-sign-in';
import { SignInForm } from './sign-in-form';
import { signInErrorToShow, signInFromLink } from './sign-in-link';

describe('SignInForm', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it("says why the identity provider's sign-in failed, also when its first render was dropped, and once", async () => {
    fakeApi({});
    window.history.replaceState(null, '', '/#sign-in-error=Not%20on%20this%20team');
    signInFromLink();
    // Beside the form, something that suspends until it is resolved: React drops the form's first render and renders it again.
    let resolve = () => {};
    let resolved = false;
    const later = new Promise<void>((done) => (resolve = done)).then(() => {
      resolved = true;
    });
    function SuspendsOnce() {
      if (!resolved) throw later;
      return null;
    }
    const { unmount } = renderView(
      <Suspense fallback={<p>Loading</p>}>
        <SignInForm />
        <SuspendsOnce />
      </Suspense>,
    );
    expect(await screen.findByText('Loading')).toBeInTheDocument();
    await act(async () => resolve());
    expect(await screen.findByRole('alert')).toHaveTextContent('Not on this team');
    expect(signInErrorToShow()).toBeNull();
    unmount();

    renderView(<SignInForm />);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('PasswordSignIn', () => {
  it('asks for what is missing at its input before anything is sent', async () => {
    const api = fakeApi({});
    const { user } = renderView(<PasswordSignIn />);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByLabelText('Email')).toHaveAccessibleDescription('Enter your email');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password');
    expect(api.requests).toEqual([]);
  });

  it('says a refused sign-in above the form, with what was typed kept', async () => {
    fakeApi({ 'POST /sign-in': () => json(401, { detail: 'Email or password not accepted' }) });
    const { user } = renderView(<PasswordSignIn />);
    await user.type(screen.getByLabelText('Email'), 'mia@example.com');
    await user.type(screen.getByLabelText('Password'), 'not her password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not signed in: Email or password not accepted');
    expect(screen.getByLabelText('Email')).toHaveValue('mia@example.com');
  });
});

describe('JoinPage', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('says passwords typed differently at the second, and a link no longer valid above the form', async () => {
    window.history.replaceState(null, '', '/join#token=t-1');
    const accept = json(404, {
      detail: 'This invitation link is not valid: it was used, withdrawn or is older than 7 days. Ask for a new one.',
    });
    const api = fakeApi({
      'POST /invitation': () => json(200, { email: 'mia@example.com', expires_at: '2026-12-09T00:00:00Z' }),
      'POST /accept-invitation': () => accept,
    });
    const { user } = renderView(<JoinPage onJoined={() => undefined} />);
    expect(await screen.findByLabelText('Email')).toHaveValue('mia@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery');
    await user.type(screen.getByLabelText('Password again'), 'correct horse batery');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByLabelText('Password again')).toHaveAccessibleDescription('The two passwords differ');
    expect(api.calls()).not.toContain('POST /accept-invitation');

    await user.clear(screen.getByLabelText('Password again'));
    await user.type(screen.getByLabelText('Password again'), 'correct horse battery');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/You have not joined yet: This invitation link is not valid/);
    expect(api.requests.at(-1)?.body).toEqual({ token: 't-1', password: 'correct horse battery' });
  });
});
