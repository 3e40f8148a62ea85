// Toolbar: menu toggle, selectors, fullscreen, shortcuts, notifications and the user menu.
import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import Keyboard from '@mui/icons-material/Keyboard';
import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Avatar,
  Box,
  Button,
  Divider,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  Toolbar,
  Tooltip,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { logout, usePermission, useSession } from '../session/session';
import { lockingPath, setLocking } from '../session/token';
import { GlobalSearch } from './GlobalSearch';
import { NotificationsBell } from './NotificationsBell';
import { resetTabs } from './openedTabs';
import { DealerSelector, ManufacturerSelector } from './Selectors';

export function toggleFullscreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen?.();
  else void document.documentElement.requestFullscreen?.().catch(() => {});
}

function UserMenu() {
  const user = useSession((s) => s.info?.user);
  const canPreferences = usePermission('Admin.Preferences.view');
  const navigate = useNavigate();
  const location = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const go = (path: string) => {
    setAnchor(null);
    navigate(path);
  };
  return (
    <>
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none', gap: 1 }}
      >
        <Avatar
          aria-hidden
          src={user?.avatar_url ?? undefined}
          sx={{ width: 30, height: 30, bgcolor: 'secondary.main' }}
        >
          {user?.full_name?.[0]}
        </Avatar>
        <Box sx={{ display: { xs: 'none', md: 'block' } }}>{user?.full_name}</Box>
        {/* Named by what it shows and what it is ("Administrador, Menú de usuario"): a name set
            with aria-label would hide the visible one (axe: label-content-name-mismatch). */}
        <Box component="span" sx={VISUALLY_HIDDEN}>
          , Menú de usuario
        </Box>
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem disabled>
          <ListItemText primary={user?.full_name} secondary={user?.email} />
        </MenuItem>
        <Divider />
        <MenuItem onClick={() => go('/admin/users/profile')}>Perfil</MenuItem>
        {canPreferences && <MenuItem onClick={() => go('/preferences')}>Configuración</MenuItem>}
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setLocking('1');
            navigate(lockingPath(location.pathname + location.search));
          }}
        >
          Bloquear pantalla
        </MenuItem>
        <MenuItem
          onClick={async () => {
            setAnchor(null);
            await logout();
            resetTabs();
            navigate('/', { replace: true });
          }}
        >
          Cerrar Sesión
        </MenuItem>
      </Menu>
    </>
  );
}

/** Read by a screen reader, not shown. */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export function TopBar({ onToggleMenu, onHelp }: { onToggleMenu: () => void; onHelp: () => void }) {
  const [full, setFull] = useState(false);
  const wide = useMediaQuery(useTheme().breakpoints.up('md'), { noSsr: true });
  return (
    <AppBar position="sticky" elevation={1} sx={{ zIndex: (t) => t.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1, minHeight: { xs: 64 } }}>
        <IconButton color="inherit" edge="start" aria-label="Mostrar u ocultar menú" onClick={onToggleMenu}>
          <MenuIcon />
        </IconButton>
        <GlobalSearch />
        <Box sx={{ flex: 1 }} />
        {/* Below md the selectors sit in the menu drawer (Shell). */}
        {wide && (
          <Box sx={{ display: 'flex', gap: 1, py: 0.5 }}>
            <DealerSelector />
            <ManufacturerSelector />
          </Box>
        )}
        <Tooltip title="Pantalla completa (Alt+F)">
          <IconButton
            color="inherit"
            aria-label="Pantalla completa"
            onClick={() => {
              toggleFullscreen();
              setFull((f) => !f);
            }}
          >
            {full ? <FullscreenExit /> : <Fullscreen />}
          </IconButton>
        </Tooltip>
        <Tooltip title="Atajos de teclado (Alt+H)">
          <IconButton color="inherit" aria-label="Atajos de teclado" onClick={onHelp}>
            <Keyboard />
          </IconButton>
        </Tooltip>
        <NotificationsBell />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
