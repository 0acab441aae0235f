/** An empty table row that stands in for rows not rendered (see useWindowRows). */
export const SpacerRow = ({ height }: { height: number }) => <tr aria-hidden="true" style={{ height }} />;
