import { i18n } from '@lingui/core';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appConversation } from '../../testing/conversations';
import { conversationError, fileEditAction } from '../../testing/events';
import { renderView } from '../../testing/render';
import { AgentControls } from './detail/agent-controls';
import { TimelineRow } from './detail/event-rows';
import { buildTimeline, receive } from './detail/timeline';
import { ConversationsView } from './list/conversations-view';
import { messages as germanConversation } from './detail/locales/de.po';
import { messages as japaneseConversation } from './detail/locales/ja.po';
import { messages as germanList } from './list/locales/de.po';
import { messages as japaneseList } from './list/locales/ja.po';

/*
 * The pages in another language, from the catalogs as the build compiles them: a message whose
 * id the code and the catalog do not agree on would show in English here.
 */

afterEach(() => i18n.activate('en'));

function inLanguage(locale: 'de' | 'ja') {
  i18n.load(locale, locale === 'de' ? { ...germanList, ...germanConversation } : { ...japaneseList, ...japaneseConversation });
  i18n.activate(locale);
}

const noop = vi.fn();

function list(count: number) {
  renderView(
    <MemoryRouter>
      <ConversationsView
        filters={{ title: '', from: '', to: '', sort: 'CREATED_AT_DESC', archived: false, owner: '', sandbox: '' }}
        titleInput=""
        items={[appConversation({ id: 'c1', title: 'Fix the parser', selected_repository: null })]}
        error={null}
        count={count}
        hasMore={false}
        loadingMore={false}
        tasks={[]}
        retryingTask={undefined}
        selected={new Set()}
        onTitleInput={noop}
        onFiltersChange={noop}
        onRetry={noop}
        onLoadMore={noop}
        onRetryTask={noop}
        onDismissTask={noop}
        onSelect={noop}
        onBulk={noop}
        onNew={noop}
      />
    </MemoryRouter>,
  );
}

describe('the conversations pages in another language', () => {
  it('says the list in German, counting in its plural forms', () => {
    inLanguage('de');
    list(1);
    expect(screen.getByRole('heading', { name: 'Unterhaltungen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Neue Unterhaltung' })).toBeInTheDocument();
    expect(screen.getByText('Kein Repository')).toBeInTheDocument();
    expect(screen.getByText('1 Unterhaltung')).toBeInTheDocument();
  });

  it('says how many actions wait for approval, in Japanese', () => {
    inLanguage('ja');
    renderView(
      <AgentControls
        executionStatus="waiting_for_confirmation"
        sandboxStatus="RUNNING"
        waiting={[
          { text: 'ls', risk: 'LOW' },
          { text: 'rm -rf build', risk: 'HIGH' },
        ]}
        onSend={() => Promise.resolve()}
        sending={false}
        sendError={null}
        onPause={noop}
        onRun={noop}
        onConfirm={noop}
        pending={null}
        requestError={null}
        onResumeSandbox={noop}
        resumingSandbox={false}
      />,
    );
    expect(screen.getByText('エージェントは次の 2 件のアクションの実行について承認を待っています:')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '承認' })).toBeInTheDocument();
    expect(screen.getByText('高リスク')).toBeInTheDocument();
  });

  it('names what an error code means and what an edit does, in German', () => {
    inLanguage('de');
    const [edit, error] = buildTimeline(
      [receive(fileEditAction('a', 'create', '/w/b.ts')), receive(conversationError('e', 'LLM_AUTH', 'Invalid API key'))],
      'idle',
    );
    renderView(
      <MemoryRouter>
        <TimelineRow item={edit!} expanded={false} onToggle={noop} />
        <TimelineRow item={error!} expanded={false} onToggle={noop} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('group', { name: 'Aktion: /w/b.ts erstellen' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Das LLM hat den Schlüssel abgelehnt');
  });
});
