// The document categories as a tree: each in tree order under its parent, with the counts (and
// the unread) of its subtree.

export interface Category {
  id: number;
  name: string;
  parent_id: number | null;
}

export interface TreeItem extends Category {
  depth: number;
  count: number;
  unread: number;
}

/** The categories in tree order (children under their parent), with the counts of their subtree. */
export function categoryTree(
  categories: Category[],
  counts: { category_id: number; count: number; unread: number }[],
): TreeItem[] {
  const known = new Set(categories.map((c) => c.id));
  const children = new Map<number | null, Category[]>();
  for (const c of categories) {
    const parent = c.parent_id && known.has(c.parent_id) ? c.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const own = new Map(counts.map((c) => [c.category_id, c]));
  const out: TreeItem[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number): { count: number; unread: number } => {
    let count = 0;
    let unread = 0;
    for (const c of [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      const item: TreeItem = {
        ...c,
        depth,
        count: own.get(c.id)?.count ?? 0,
        unread: own.get(c.id)?.unread ?? 0,
      };
      out.push(item);
      const sub = walk(c.id, depth + 1);
      item.count += sub.count;
      item.unread += sub.unread;
      count += item.count;
      unread += item.unread;
    }
    return { count, unread };
  };
  walk(null, 0);
  return out;
}
