// The menu tree editor above the tabs list: the whole tree (GET /api/tabs-tree) with each entry's
// icon, screen name and permission base, and up/down buttons that reorder siblings (PUT
// /api/tabs/{id} with the new order). Users see the new order on their next menu load.
import { resourceCalls, securityCalls, type TabNode, tabContract } from '@app/contracts';

const tabCalls = resourceCalls(tabContract);

import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import { Box, Chip, IconButton, LinearProgress, Paper, Tooltip, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call } from '../../lib/http';
import { usePermission } from '../../session/session';
import { MenuIcon } from '../../shell/icons';

export function TabTree() {
  const canUpdate = usePermission('Admin.Tabs.update');
  const queryClient = useQueryClient();
  const tree = useQuery({ queryKey: ['tabs-tree'], queryFn: () => call(securityCalls.tabsTree) });
  const [busy, setBusy] = useState(false);

  const move = async (siblings: TabNode[], index: number, delta: -1 | 1) => {
    const target = index + delta;
    if (busy || target < 0 || target >= siblings.length) return;
    const next = [...siblings];
    [next[index], next[target]] = [next[target], next[index]];
    setBusy(true);
    try {
      // Orders follow the positions (1, 2, 3...): only entries whose order changes are saved.
      const rows = (await call(tabCalls.list, { query: { perPage: -1 } })) as { id: number; order: number }[];
      const current = new Map(rows.map((r) => [r.id, r.order]));
      for (const [i, t] of next.entries())
        if (current.get(t.id) !== i + 1)
          await call(tabCalls.update, { params: { id: t.id }, body: { order: i + 1 } });
      enqueueSnackbar('Orden guardado', { variant: 'success' });
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
      await tree.refetch();
      await queryClient.invalidateQueries({ queryKey: ['list', 'tabs'] });
    }
  };

  const render = (nodes: TabNode[], depth: number) =>
    nodes.map((n, i) => (
      <Box key={n.id}>
        <Box
          data-tab={n.name}
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            pl: 1 + depth * 3,
            py: 0.25,
            '&:hover': { bgcolor: 'action.hover' },
          }}
        >
          <MenuIcon name={n.icon} />
          <Typography sx={{ fontWeight: depth === 0 ? 600 : 400, minWidth: 160 }}>{n.title}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ minWidth: 140 }}>
            {n.name}
          </Typography>
          {n.permission && <Chip size="small" variant="outlined" label={n.permission} />}
          <Box sx={{ flex: 1 }} />
          {canUpdate && (
            <>
              <Tooltip title="Subir">
                <span>
                  <IconButton
                    size="small"
                    aria-label={`Subir ${n.title}`}
                    disabled={busy || i === 0}
                    onClick={() => void move(nodes, i, -1)}
                  >
                    <ArrowUpward fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title="Bajar">
                <span>
                  <IconButton
                    size="small"
                    aria-label={`Bajar ${n.title}`}
                    disabled={busy || i === nodes.length - 1}
                    onClick={() => void move(nodes, i, 1)}
                  >
                    <ArrowDownward fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
            </>
          )}
        </Box>
        {render(n.children, depth + 1)}
      </Box>
    ));

  return (
    <Paper variant="outlined" sx={{ mb: 2, maxHeight: 360, overflow: 'auto' }}>
      <Typography variant="subtitle2" sx={{ px: 1.5, pt: 1 }}>
        Árbol del menú
      </Typography>
      {(tree.isFetching || busy) && <LinearProgress />}
      <Box sx={{ py: 0.5 }} data-testid="tab-tree">
        {render(tree.data ?? [], 0)}
      </Box>
    </Paper>
  );
}
