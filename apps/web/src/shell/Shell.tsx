// The layout shell (/main): toolbar, side menu, opened-page tabs, breadcrumb, page, footer.

import { LIMITS } from '@app/contracts';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { Box, Breadcrumbs, Drawer, Fab, Link, Typography, Zoom } from '@mui/material';
import { Suspense, useEffect, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { Outlet, Link as RouterLink, useLocation } from 'react-router';
import { Loading } from '../lib/Loading';
import { HOME_PATH, screenByPath } from '../lib/screens';
import { GlobalFiltersProvider } from '../session/filters';
import { useSession } from '../session/session';
import { ExportJobDialog } from './ExportJobDialog';
import { openTab } from './openedTabs';
import { DealerSelector, ManufacturerSelector, useSmallScreen } from './Selectors';
import { ShortcutsDialog } from './ShortcutsDialog';
import { SideMenu } from './SideMenu';
import { TabsBar } from './TabsBar';
import { TopBar, toggleFullscreen } from './TopBar';

const WIDE = 250;
const NARROW = 64;
/** The phone drawer's paper (a dialog) is named; one object, so the drawer keeps its paper. */
const DRAWER_PAPER = { 'aria-label': 'Menú' };
const HOTKEY_OPTS = { enableOnFormTags: true, preventDefault: true } as const;
/** The menu collapsed or opened by hand, kept across loads ('1' collapsed, '0' open). */
export const MENU_COLLAPSED_KEY = 'menu-collapsed';

function readCollapsed(): boolean | null {
  const v = localStorage.getItem(MENU_COLLAPSED_KEY);
  return v === '1' ? true : v === '0' ? false : null;
}

/**
 * Below `md` the toolbar has no room for the dealer and brand selectors: they sit at the top of
 * the menu drawer, full width, with their labels in the drawer's colours.
 */
function DrawerSelectors() {
  return (
    <Box
      data-testid="drawer-selectors"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        px: 2,
        pt: 2,
        pb: 2,
        borderBottom: 1,
        borderColor: 'divider',
        '&& .MuiTextField-root': { width: '100%', maxWidth: 'none', minWidth: 0 },
        '&& .MuiInputBase-root': { bgcolor: 'background.paper' },
        '&& .MuiInputLabel-root.MuiInputLabel-shrink': {
          color: 'text.secondary',
          transform: 'translate(2px, -17px) scale(0.75)',
        },
      }}
    >
      <DealerSelector />
      <ManufacturerSelector />
    </Box>
  );
}

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
  // Phones and small tablets: the menu is a temporary drawer behind the toolbar's button.
  const small = useSmallScreen();
  const [collapsed, setCollapsedState] = useState<boolean | null>(readCollapsed);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [help, setHelp] = useState(false);
  // SPEC §1: a menu with a single top-level entry starts collapsed, unless the user said otherwise.
  const isCollapsed = collapsed ?? (menu ? menu.length === 1 : false);
  const setCollapsed = (v: boolean) => {
    localStorage.setItem(MENU_COLLAPSED_KEY, v ? '1' : '0');
    setCollapsedState(v);
  };
  const toggleMenu = () => (small ? setDrawerOpen((o) => !o) : setCollapsed(!isCollapsed));

  // Every navigation to another screen (a menu entry, a tab, a link) closes the drawer; a screen
  // writing its own filters into the address (the dashboard's brand) is not one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the screen's path itself
  useEffect(() => setDrawerOpen(false), [location.pathname]);

  const permissions = useSession((s) => s.info?.user.permissions);
  // A screen the user may not view shows the 403 page and opens no tab (SPEC §2).
  const allowed = !screen?.permission || !!permissions?.includes(`${screen.permission}.view`);
  useEffect(() => {
    if (screen && allowed && screen.name !== 'error-403' && !screen.firstChild) {
      openTab({ name: screen.name, title: screen.title, url: location.pathname + location.search });
    }
  }, [screen, allowed, location.pathname, location.search]);

  useHotkeys('alt+h', () => setHelp((h) => !h), HOTKEY_OPTS);
  useHotkeys('alt+f', toggleFullscreen, HOTKEY_OPTS);
  useHotkeys('alt+m', toggleMenu, HOTKEY_OPTS, [isCollapsed, small]);
  useHotkeys('alt+p', () => window.print(), HOTKEY_OPTS);

  const width = isCollapsed ? NARROW : WIDE;
  return (
    <GlobalFiltersProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
        <TopBar onToggleMenu={toggleMenu} onHelp={() => setHelp(true)} />
        <Box sx={{ display: 'flex', flex: 1, minWidth: 0 }}>
          {small ? (
            <Drawer
              variant="temporary"
              open={drawerOpen}
              onClose={() => setDrawerOpen(false)}
              ModalProps={{ keepMounted: true }}
              // The drawer's paper is a dialog: it is named as the menu it holds.
              PaperProps={DRAWER_PAPER}
              // Over the toolbar, as a phone's menu is.
              sx={{
                zIndex: (t) => t.zIndex.drawer + 2,
                '& .MuiDrawer-paper': { width: `min(${WIDE + 30}px, 85vw)` },
              }}
              data-testid="menu-drawer"
              data-open={drawerOpen ? 'true' : 'false'}
            >
              <DrawerSelectors />
              {/* Tapping an entry closes the drawer, also the entry of the page already open. */}
              <SideMenu collapsed={false} onNavigate={() => setDrawerOpen(false)} />
            </Drawer>
          ) : (
            <Drawer
              variant="permanent"
              sx={{
                width,
                flexShrink: 0,
                '& .MuiDrawer-paper': {
                  width,
                  top: 64,
                  height: 'calc(100% - 64px)',
                  transition: 'width .2s',
                },
              }}
              data-collapsed={isCollapsed ? 'true' : 'false'}
            >
              <SideMenu collapsed={isCollapsed} />
            </Drawer>
          )}
          <Box component="main" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <TabsBar current={screen?.name} />
            <Box sx={{ px: { xs: 1.5, md: 3 }, pt: 1.5 }}>
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
            <Box sx={{ flex: 1, minWidth: 0, p: { xs: 1, md: 3 }, pt: { xs: 1.5, md: 1.5 } }}>
              <Suspense fallback={<Loading />}>
                <Outlet />
              </Suspense>
            </Box>
            <Footer />
          </Box>
        </Box>
      </Box>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
      <ExportJobDialog />
      <ScrollTop />
    </GlobalFiltersProvider>
  );
}
