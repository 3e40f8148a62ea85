// /main/order ("Ver todo" of the bell): every notification and message the bell shows, in full, in
// the same two tabs. Nothing sends notifications or messages to a user yet, so both lists say so
// plainly (the bell says the same): no placeholder.
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import { Box, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';

/** The bell's two lists; `notifications` and `messages` are what the user received (none yet). */
export const NOTIFICATION_TABS = [
  { label: 'Notificación', empty: 'No tiene notificaciones' },
  { label: 'Mensajes', empty: 'No tiene mensajes' },
] as const;

export default function NotificationsPage() {
  const [tab, setTab] = useState(0);
  const current = NOTIFICATION_TABS[tab];
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Notificaciones
      </Typography>
      <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label="Notificaciones y mensajes">
        {NOTIFICATION_TABS.map((t) => (
          <Tab key={t.label} label={t.label} />
        ))}
      </Tabs>
      <Box role="tabpanel" aria-label={current.label} sx={{ py: 6, textAlign: 'center' }}>
        <NotificationsNone color="disabled" sx={{ fontSize: 48 }} aria-hidden />
        <Typography>{current.empty}</Typography>
        <Typography variant="body2" color="text.secondary">
          Aquí verá los avisos y mensajes que reciba, los más recientes primero.
        </Typography>
      </Box>
    </Paper>
  );
}
