// A list of notifications (the bell's popup and the Notificaciones page): the kind's icon, the
// title, what it says and when; unread ones in bold with a dot. A click marks it read and opens
// what it is about.
import { NOTIFICATION_KINDS, type NotificationItem } from '@app/contracts';
import Assignment from '@mui/icons-material/Assignment';
import Description from '@mui/icons-material/Description';
import Event from '@mui/icons-material/Event';
import EventBusy from '@mui/icons-material/EventBusy';
import SentimentVeryDissatisfied from '@mui/icons-material/SentimentVeryDissatisfied';
import TableChart from '@mui/icons-material/TableChart';
import { Box, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useMarkRead, whenText } from './notifications';

const ICONS: Record<string, ReactNode> = {
  agreement_due: <Event color="warning" />,
  agreement_overdue: <EventBusy color="error" />,
  quiz_alert: <SentimentVeryDissatisfied color="error" />,
  figures_pending: <TableChart color="primary" />,
  document: <Description color="primary" />,
  job: <Assignment color="action" />,
};

export const kindName = (kind: string) => NOTIFICATION_KINDS.find((k) => k.id === kind)?.name ?? kind;

export function NotificationList({
  items,
  onOpen,
  dense,
}: {
  items: NotificationItem[];
  onOpen?: () => void;
  dense?: boolean;
}) {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  return (
    <List dense={dense} disablePadding aria-label="Notificaciones">
      {items.map((n) => (
        // Each button in its own <li> (a <ul> holds only list items: axe's list rule).
        <ListItem key={n.id} disablePadding divider>
          <ListItemButton
            onClick={() => {
              if (!n.read_at) markRead.mutate(n);
              onOpen?.();
              if (n.link) navigate(n.link);
            }}
            sx={{ alignItems: 'flex-start', bgcolor: n.read_at ? undefined : 'action.hover' }}
          >
            <ListItemIcon sx={{ minWidth: 40, mt: 0.5 }} aria-hidden>
              {ICONS[n.kind]}
            </ListItemIcon>
            <ListItemText
              primary={
                <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
                  <Box component="span" sx={{ flex: 1, fontWeight: n.read_at ? 400 : 700 }}>
                    {n.title}
                  </Box>
                  {!n.read_at && (
                    <Box component="span" sx={{ fontSize: 12, color: 'primary.main', whiteSpace: 'nowrap' }}>
                      Nueva
                    </Box>
                  )}
                </Box>
              }
              secondary={
                <>
                  {n.body && (
                    <Typography component="span" variant="body2" sx={{ display: 'block' }}>
                      {n.body}
                    </Typography>
                  )}
                  <Typography component="span" variant="caption" color="text.secondary">
                    {kindName(n.kind)} · {whenText(n.created_at)}
                  </Typography>
                </>
              }
            />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}
