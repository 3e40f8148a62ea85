// The layout shell (/main): toolbar, side menu, opened-page tabs, breadcrumb, page, footer.

import { LIMITS } from '@app/contracts';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { Box, Breadcrumbs, Drawer, Fab, Link, Typography, Zoom } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Outlet, Link as RouterLink, useLocation } from 'react-router';
import { Loading } from '../app/guard';
import { HOME_PATH, screenByPath } from '../app/screens';
import { useSession } from '../auth/session';
import { GlobalFiltersProvider } from './filters';
import { openTab } from './openedTabs';
import { ShortcutsDialog } from './ShortcutsDialog';
import { SideMenu } from './SideMenu';
import { TabsBar } from './TabsBar';
import { TopBar, toggleFullscreen } from './TopBar';

const WIDE = 250;
const NARROW = 64;
const HOTKEY_OPTS = { enableOnFormTags: true, preventDefault: true } as const;

function ScrollTop() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    const onScroll = () => setShow(window.scrollY > LIMITS.scrollTopThreshold);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return (
    <Zoom in={show}>
      <Fab
        color="primary"
        size="small"
        aria-label="Volver arriba"
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
        sx={{ position: 'fixed', right: 24, bottom: 24 }}
      >
        <KeyboardArrowUp />
      </Fab>
    </Zoom>
  );
}

function Footer() {
  const company = useSession((s) => (s.settings.COMPANY_NAME || s.settings.APP_NAME) as string);
  return (
    <Box
      component="footer"
      sx={{ px: 3, py: 1.5, color: 'text.secondary', fontSize: 12, textAlign: 'center' }}
    >
      © {new Date().getFullYear()} {company}. Todos los derechos reservados. Desarrollado por una agencia
      externa; propiedad de una empresa automotriz.
    </Box>
  );
}

export default function Shell() {
  const menu = useSession((s) => s.menu);
  const location = useLocation();
  const screen = screenByPath(location.pathname);
  const [collapsed, setCollapsed] = useState<boolean | null>(null);
  const [help, setHelp] = useState(false);
  // SPEC §1: a menu with a single top-level entry starts collapsed.
  const isCollapsed = collapsed ?? (menu ? menu.length === 1 : false);

  useEffect(() => {
    if (screen && screen.name !== 'error-403' && !screen.firstChild) {
      openTab({ name: screen.name, title: screen.title, url: location.pathname + location.search });
    }
  }, [screen, location.pathname, location.search]);

  useHotkeys('alt+h', () => setHelp((h) => !h), HOTKEY_OPTS);
  useHotkeys('alt+f', toggleFullscreen, HOTKEY_OPTS);
  useHotkeys('alt+m', () => setCollapsed(!isCollapsed), HOTKEY_OPTS, [isCollapsed]);
  useHotkeys('alt+p', () => window.print(), HOTKEY_OPTS);

  const width = isCollapsed ? NARROW : WIDE;
  return (
    <GlobalFiltersProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <TopBar onToggleMenu={() => setCollapsed(!isCollapsed)} onHelp={() => setHelp(true)} />
        <Box sx={{ display: 'flex', flex: 1 }}>
          <Drawer
            variant="permanent"
            sx={{
              width,
              flexShrink: 0,
              '& .MuiDrawer-paper': { width, top: 64, height: 'calc(100% - 64px)', transition: 'width .2s' },
            }}
            data-collapsed={isCollapsed ? 'true' : 'false'}
          >
            <SideMenu collapsed={isCollapsed} />
          </Drawer>
          <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <TabsBar current={screen?.name} />
            <Box sx={{ px: 3, pt: 1.5 }}>
              <Breadcrumbs aria-label="breadcrumb" sx={{ fontSize: 13 }}>
                <Link component={RouterLink} to={HOME_PATH} underline="hover" color="inherit">
                  Inicio
                </Link>
                {screen?.trail.map((n) => (
                  <Typography key={n.name} fontSize={13} color="text.secondary">
                    {n.title}
                  </Typography>
                ))}
                {screen && screen.name !== 'home' && (
                  <Typography fontSize={13} color="text.primary">
                    {screen.title}
                  </Typography>
                )}
              </Breadcrumbs>
            </Box>
            <Box sx={{ flex: 1, p: 3, pt: 1.5 }}>
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </Box>
            <Footer />
          </Box>
        </Box>
      </Box>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
      <ScrollTop />
    </GlobalFiltersProvider>
  );
}
