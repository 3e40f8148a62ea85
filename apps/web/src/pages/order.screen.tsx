// /main/order ("Ver todo" of the bell): every notification of the user, the most recent first, in
// the same two tabs as the bell; filters by kind and read/unread, paging, mark all read. Messages
// between users do not exist yet: that tab says so plainly.
import { NOTIFICATION_KINDS, type NotificationKind } from '@app/contracts';
import DoneAll from '@mui/icons-material/DoneAll';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import {
  Box,
  Button,
  MenuItem,
  Pagination,
  Paper,
  Tab,
  Tabs,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { NotificationList } from '../shell/NotificationList';
import { NOTIFICATION_TABS, useMarkAllRead, useNotifications } from '../shell/notifications';

const PER_PAGE = 10;

function Empty({ text, hint }: { text: string; hint: string }) {
  return (
    <Box sx={{ py: 6, textAlign: 'center' }}>
      <NotificationsNone color="disabled" sx={{ fontSize: 48 }} aria-hidden />
      <Typography>{text}</Typography>
      <Typography variant="body2" color="text.secondary">
        {hint}
      </Typography>
    </Box>
  );
}

function NotificationsTab() {
  const [kind, setKind] = useState<NotificationKind | ''>('');
  const [status, setStatus] = useState<'all' | 'unread' | 'read'>('all');
  const [page, setPage] = useState(1);
  const list = useNotifications({
    kind: kind || undefined,
    status: status === 'all' ? undefined : status,
    page,
    perPage: PER_PAGE,
  });
  const markAll = useMarkAllRead();
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / PER_PAGE)) : 1;
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', py: 2 }}>
        <TextField
          select
          size="small"
          label="Tipo"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as NotificationKind | '');
            setPage(1);
          }}
          fullWidth={false}
          sx={{ width: { xs: '100%', sm: 260 } }}
        >
          <MenuItem value="">Todos</MenuItem>
          {NOTIFICATION_KINDS.map((k) => (
            <MenuItem key={k.id} value={k.id}>
              {k.name}
            </MenuItem>
          ))}
        </TextField>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={status}
          onChange={(_, v) => {
            if (v) {
              setStatus(v);
              setPage(1);
            }
          }}
          aria-label="Estado"
        >
          <ToggleButton value="all">Todas</ToggleButton>
          <ToggleButton value="unread">No leídas</ToggleButton>
          <ToggleButton value="read">Leídas</ToggleButton>
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        <Typography variant="body2" color="text.secondary">
          {data ? `${data.unread} sin leer` : ''}
        </Typography>
        <Button
          startIcon={<DoneAll />}
          disabled={!data?.unread || markAll.isPending}
          onClick={() => markAll.mutate(kind || undefined)}
        >
          Marcar todo como leído
        </Button>
      </Box>
      {data && data.data.length > 0 ? (
        <>
          <NotificationList items={data.data} />
          {pages > 1 && (
            <Box sx={{ display: 'flex', justifyContent: 'center', pt: 2 }}>
              <Pagination count={pages} page={page} onChange={(_, p) => setPage(p)} />
            </Box>
          )}
        </>
      ) : (
        <Empty
          text={list.isLoading ? 'Cargando' : NOTIFICATION_TABS[0].empty}
          hint="Aquí verá lo que necesita su atención: acuerdos por vencer o vencidos, alertas de encuesta, cifras por confirmar, documentos publicados e importaciones o exportaciones terminadas."
        />
      )}
    </>
  );
}

export default function NotificationsPage() {
  const [tab, setTab] = useState(0);
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
      <Box role="tabpanel" aria-label={NOTIFICATION_TABS[tab].label}>
        {tab === 0 ? (
          <NotificationsTab />
        ) : (
          <Empty
            text={NOTIFICATION_TABS[1].empty}
            hint="Aquí verá los mensajes que reciba, los más recientes primero."
          />
        )}
      </Box>
    </Paper>
  );
}
