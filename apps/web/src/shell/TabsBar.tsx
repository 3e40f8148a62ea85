// Tabs of the opened pages with 'Cerrar todo' and 'Cerrar los otros'.
import CloseIcon from '@mui/icons-material/Close';
import MoreVert from '@mui/icons-material/MoreVert';
import { Box, IconButton, Menu, MenuItem, Tab, Tabs } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { defaultTabPath, screenByPath } from '../lib/screens';
import { useSession } from '../session/session';
import { closeAll, closeOthers, closeTab, isClosable, useOpenedTabs } from './openedTabs';

export function TabsBar({ current }: { current?: string }) {
  const tabs = useOpenedTabs();
  const navigate = useNavigate();
  const defaultTab = useSession((s) => s.info?.user.default_tab);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const value = tabs.some((t) => t.name === current) ? current : false;

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Tabs
        value={value}
        variant="scrollable"
        scrollButtons="auto"
        sx={{ flex: 1, minHeight: 40 }}
        aria-label="Páginas abiertas"
      >
        {tabs.map((t) => (
          <Tab
            key={t.name}
            value={t.name}
            onClick={() => navigate(t.url)}
            sx={{ minHeight: 40, textTransform: 'none', py: 0 }}
            data-tab={t.name}
            label={
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                {t.title}
                {isClosable(t) && (
                  <Box
                    component="span"
                    role="button"
                    aria-label={`Cerrar ${t.title}`}
                    sx={{
                      display: 'inline-flex',
                      borderRadius: '50%',
                      '&:hover': { bgcolor: 'action.hover' },
                    }}
                    onClick={(e) => {
                      e.stopPropagation();
                      const next = closeTab(t.name, current);
                      if (next) navigate(next);
                    }}
                  >
                    <CloseIcon fontSize="inherit" />
                  </Box>
                )}
              </Box>
            }
          />
        ))}
      </Tabs>
      <IconButton size="small" aria-label="Opciones de pestañas" onClick={(e) => setAnchor(e.currentTarget)}>
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            const home = defaultTabPath(defaultTab);
            const s = screenByPath(home);
            closeAll(s ? { name: s.name, title: s.title, url: home } : undefined);
            navigate(home);
          }}
        >
          Cerrar todo
        </MenuItem>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            closeOthers(current);
          }}
        >
          Cerrar los otros
        </MenuItem>
      </Menu>
    </Box>
  );
}
