import { Trans } from '@lingui/react/macro';
import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';

export type ConversationTab = 'conversation' | 'changes' | 'files';

export interface ConversationTabsProps {
  tab: ConversationTab;
  onTab: (tab: ConversationTab) => void;
  conversation: ReactNode;
  /** Absent when the server cannot read a workspace (OpenHands): no such tabs then. */
  changes?: ReactNode;
  files?: ReactNode;
}

/** A conversation's events and controls, and beside them its workspace's changes and files; only the chosen one renders. */
export function ConversationTabs({ tab, onTab, conversation, changes, files }: ConversationTabsProps) {
  if (!changes && !files) return conversation;
  return (
    <Tabs value={tab} onChange={(value) => onTab((value ?? 'conversation') as ConversationTab)} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="conversation">
          <Trans>Conversation</Trans>
        </Tabs.Tab>
        {changes && (
          <Tabs.Tab value="changes">
            <Trans>Changes</Trans>
          </Tabs.Tab>
        )}
        {files && (
          <Tabs.Tab value="files">
            <Trans>Files</Trans>
          </Tabs.Tab>
        )}
      </Tabs.List>
      <Tabs.Panel value="conversation">{conversation}</Tabs.Panel>
      {changes && <Tabs.Panel value="changes">{changes}</Tabs.Panel>}
      {files && <Tabs.Panel value="files">{files}</Tabs.Panel>}
    </Tabs>
  );
}
