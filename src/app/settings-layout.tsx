import { useLingui } from '@lingui/react/macro';
import { Outlet } from 'react-router';
import { PageHeader } from '../components/page-header';
import { SettingsTabs } from './settings-tabs';

/** `/settings` and its sub-pages: one header and the tabs, the sub-page below. */
export function SettingsLayout() {
  const { t } = useLingui();
  return (
    <>
      <PageHeader title={t`Settings`} description={t`What the agent uses for every new conversation.`} />
      <SettingsTabs />
      <Outlet />
    </>
  );
}
