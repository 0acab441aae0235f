import { i18n } from '@lingui/core';
import { act, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { messages as german } from '../i18n/locales/de.po';
import { messages as japanese } from '../i18n/locales/ja.po';
import { renderView } from '../testing/render';
import { RowActions } from './row-actions';
import { SandboxStatusBadge } from './sandbox-status-badge';

/* Shared parts in another language, from the shell's catalogs as the build compiles them. */

afterEach(() => i18n.activate('en'));

it("shows a sandbox's status in the console's language", () => {
  i18n.load('de', german);
  i18n.activate('de');
  renderView(<SandboxStatusBadge status="RUNNING" />);
  expect(screen.getByText('Läuft')).toBeInTheDocument();
  act(() => i18n.activate('en'));
  expect(screen.getByText('Running')).toBeInTheDocument();
});

it("names a row's action in the language's order", () => {
  i18n.load('ja', japanese);
  i18n.activate('ja');
  renderView(<RowActions name="fetch" actions={[{ verb: '削除', icon: null, onClick: vi.fn() }]} />);
  expect(screen.getByRole('button', { name: 'fetch を削除' })).toBeInTheDocument();
});
