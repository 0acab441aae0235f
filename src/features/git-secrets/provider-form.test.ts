import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { providerFormValues, resolverFor } from './provider-form';

const resolve = (provider: Parameters<typeof resolverFor>[0], connected: boolean, token: string, host: string) =>
  resolverFor(provider, connected, i18n)({ ...providerFormValues(undefined), token: { value: token, clear: false }, host }, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });

describe('resolverFor', () => {
  it('needs a host for Enterprise SSO, as the server does', async () => {
    const { errors } = await resolve('enterprise_sso', false, 'sso-token', '  ');
    expect(errors.host?.message).toBe('Enterprise SSO needs the host of your server');
    expect((await resolve('enterprise_sso', false, 'sso-token', 'sso.example.com')).errors).toEqual({});
  });

  it('takes the public host for the others, and needs a token to connect', async () => {
    expect((await resolve('github', false, 'ghp_x', '')).errors).toEqual({});
    expect((await resolve('github', false, '', '')).errors.token?.message).toBe('Paste a token to connect');
    expect((await resolve('github', true, '', '')).errors).toEqual({});
  });
});
