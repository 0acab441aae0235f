import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors';
import { downloadUsageCsv } from '../../api/usage';
import { PageHeader } from '../../components/page-header';
import { QueryContent } from '../../components/query-content';
import { saveFile } from '../../components/save-file';
import { useUrlParams } from '../../components/use-url-params';
import { isAdminRole } from '../../contract/roles';
import { isDay, type UsageQuery } from '../../contract/usage';
import { meQuery } from '../../queries/me';
import { usageQuery } from '../../queries/usage';
import { shiftDay, today } from './figures';
import { UsageView } from './usage-view';

/** What the router loads: the page, and the catalog of its strings. */
export { UsagePage as Page };
export { loadUsageCatalog as catalog } from './catalog';

/** Usage and cost: the team's for owners and admins, a member's own. The range and user are in the URL (`?from=&to=&user=`). */
export function UsagePage() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [params, update] = useUrlParams<'from' | 'to' | 'user'>();
  const now = today();
  const to = isDay(params.get('to') ?? '') ? params.get('to')! : now;
  const from = isDay(params.get('from') ?? '') ? params.get('from')! : shiftDay(to, -29);
  const userId = params.get('user') || undefined;
  const query: UsageQuery = { from, to, ...(userId ? { user_id: userId } : {}) };
  const usage = useQuery(usageQuery(query));
  const me = useQuery(meQuery(queryClient));
  const everyone = me.data ? isAdminRole(me.data.role) : false;
  const [exporting, setExporting] = useState(false);

  const exportCsv = async () => {
    setExporting(true);
    try {
      saveFile(await downloadUsageCsv(query));
    } catch (error) {
      notifications.show({ color: 'red', title: t`The CSV was not exported`, message: describeError(error) });
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader
        title={t`Usage`}
        description={
          everyone
            ? t`What the team's agents used: LLM calls, tokens and their cost, sandbox time and conversations, per day (UTC).`
            : t`What your agents used: LLM calls, tokens and their cost, sandbox time and conversations, per day (UTC).`
        }
      />
      <QueryContent query={usage} what={t`usage`} skeletonHeight={480}>
        {(data) => (
          <UsageView
            usage={data}
            everyone={everyone}
            userId={userId}
            today={now}
            onRange={(range) => update({ from: range.from, to: range.to })}
            onUser={(user) => update({ user })}
            onExport={() => void exportCsv()}
            exporting={exporting}
          />
        )}
      </QueryContent>
    </>
  );
}
