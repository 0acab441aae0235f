/** What a table's checkboxes need from the ids selected among its rows' ids. */
export function rowSelection(ids: readonly string[], selected: ReadonlySet<string>, onSelect: (selected: Set<string>) => void) {
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  return {
    all,
    /** Some rows, not all: the header checkbox shows a dash. */
    some: !all && ids.some((id) => selected.has(id)),
    toggleAll: () => onSelect(all ? new Set() : new Set(ids)),
    toggle: (id: string) => {
      const next = new Set(selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      onSelect(next);
    },
  };
}
