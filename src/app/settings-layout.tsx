import { Outlet } from 'react-router';
import { PageHeader } from '../components/page-header';
import { SettingsTabs } from './settings-tabs';

/** `/settings` and its sub-pages: one header and the tabs, the sub-page below. */
export function SettingsLayout() {
  return (
    <>
      <PageHeader title="Settings" description="What the agent uses for every new conversation." />
      <SettingsTabs />
      <Outlet />
    </>
  );
}
