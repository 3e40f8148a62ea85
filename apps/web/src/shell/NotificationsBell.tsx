// The bell of the top bar: the unread count on it, and a popup with the latest notifications
// (SPEC: tabs Notificación and Mensajes, a link to the 'order' route), 'Marcar todo como leído'.
import Notifications from '@mui/icons-material/Notifications';
import {
  Badge,
  Box,
  Button,
  Divider,
  IconButton,
  Popover,
  Tab,
  Tabs,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { NotificationList } from './NotificationList';
import { NOTIFICATION_TABS, useMarkAllRead, useNotifications } from './notifications';

export function NotificationsBell() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [tab, setTab] = useState(0);
  const latest = useNotifications({ perPage: 5 }, 60_000);
  const markAll = useMarkAllRead();
  const unread = latest.data?.unread ?? 0;
  const items = latest.data?.data ?? [];
  // The name holds the badge's text as shown ("99+" reads "más de 99"), outside parentheses:
  // axe's label-content-name-mismatch drops a parenthetical, so "(4 sin leer)" hid the "4".
  const label = unread ? `Notificaciones: ${unread > 99 ? 'más de 99' : unread} sin leer` : 'Notificaciones';
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} onClick={(e) => setAnchor(e.currentTarget)}>
          <Badge badgeContent={unread} color="error" max={99}>
            <Notifications />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ width: { xs: 'calc(100vw - 32px)', sm: 380 }, maxWidth: 380 }}>
          <Tabs
            value={tab}
            onChange={(_, v) => setTab(v)}
            variant="fullWidth"
            aria-label="Notificaciones y mensajes"
          >
            {NOTIFICATION_TABS.map((t) => (
              <Tab key={t.label} label={t.label} />
            ))}
          </Tabs>
          {tab === 0 && items.length > 0 ? (
            <Box sx={{ maxHeight: 420, overflowY: 'auto' }}>
              <NotificationList items={items} dense onOpen={() => setAnchor(null)} />
            </Box>
          ) : (
            <Typography color="text.secondary" align="center" sx={{ py: 4 }}>
              {NOTIFICATION_TABS[tab].empty}
            </Typography>
          )}
          <Divider />
          <Box sx={{ display: 'flex', justifyContent: 'space-between', p: 1 }}>
            <Button size="small" disabled={tab !== 0 || !unread} onClick={() => markAll.mutate(undefined)}>
              Marcar todo como leído
            </Button>
            <Button component={RouterLink} to="/main/order" size="small" onClick={() => setAnchor(null)}>
              Ver todo
            </Button>
          </Box>
        </Box>
      </Popover>
    </>
  );
}
