import { screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { renderView } from '../testing/render';
import { ShortId, shortId } from './short-id';

describe('shortId', () => {
  it.each([
    ['0123456789abcdef0123456789abcdef', '01234567'],
    ['oh-agent-server-3Rz9Xw1bQk7VtLp2sYd8Ha', '3Rz9Xw1b'],
    ['abc', 'abc'],
    ['oh-agent-server-', 'oh-agent'],
  ])('%s → %s', (id, short) => {
    expect(shortId(id)).toBe(short);
  });

  it('shows the full id on hover', () => {
    renderView(
      <MantineProvider env="test">
        <ShortId id="0123456789abcdef" />
      </MantineProvider>,
    );
    expect(screen.getByText('01234567')).toHaveAttribute('title', '0123456789abcdef');
  });
});
