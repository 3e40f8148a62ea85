// The side menu built from the user's tabs (GET /api/tabs/menu); a 9-item skeleton while loading.
import type { TabNode } from '@app/contracts';
import { LIMITS } from '@app/contracts';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Collapse, List, ListItemButton, ListItemIcon, ListItemText, Skeleton, Tooltip } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { screenByName } from '../lib/screens';
import { useSession } from '../session/session';
import { MenuIcon } from './icons';

/** Menu entries are matched to screens by name (SPEC §2); the tab's own path is the fallback. */
const pathOf = (node: TabNode) => screenByName(node.name)?.path ?? node.path ?? undefined;

function contains(node: TabNode, pathname: string): boolean {
  return pathOf(node) === pathname || node.children.some((c) => contains(c, pathname));
}

interface EntryProps {
  node: TabNode;
  depth: number;
  collapsed: boolean;
  /** A screen's entry was chosen, even the current one (the phone's drawer closes). */
  onNavigate?: () => void;
}

function Entry({ node, depth, collapsed, onNavigate }: EntryProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const hasChildren = node.children.length > 0;
  const [open, setOpen] = useState(() => contains(node, pathname));
  const selected = !hasChildren && pathOf(node) === pathname;
  const to = hasChildren ? undefined : pathOf(node);
  // A screen's entry is a link: a click opens it in the app (and its tab), a middle click or
  // Ctrl+click in a new browser tab. A group's entry is a button.
  const linkProps = to ? { component: RouterLink, to } : {};
  const button = (
    <ListItemButton
      {...linkProps}
      selected={selected}
      sx={{ pl: collapsed ? 2.5 : 2 + depth * 2, minHeight: 42 }}
      onClick={() => {
        if (hasChildren && !collapsed) setOpen((o) => !o);
        else if (hasChildren) navigate(pathOf(node.children[0]) ?? '/main/home');
        else onNavigate?.();
      }}
      data-menu={node.name}
    >
      <ListItemIcon sx={{ minWidth: 36, color: selected ? 'primary.main' : undefined }}>
        <MenuIcon name={node.icon} />
      </ListItemIcon>
      {!collapsed && (
        <ListItemText primary={node.title} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />
      )}
      {!collapsed &&
        hasChildren &&
        (open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />)}
    </ListItemButton>
  );
  return (
    <>
      {collapsed ? (
        <Tooltip title={node.title} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
      {hasChildren && !collapsed && (
        <Collapse in={open} unmountOnExit>
          {/* A group of links, as the menu itself (a <ul> would need <li> entries). */}
          <List component="div" role="group" aria-label={node.title} disablePadding>
            {node.children.map((c) => (
              <Entry key={c.id} node={c} depth={depth + 1} collapsed={collapsed} onNavigate={onNavigate} />
            ))}
          </List>
        </Collapse>
      )}
    </>
  );
}

export function SideMenu({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const menu = useSession((s) => s.menu);
  if (!menu) {
    return (
      <List aria-label="Cargando menú" data-testid="menu-skeleton">
        {Array.from({ length: LIMITS.menuSkeletonItems }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <ListItemButton key={i} disabled>
            <Skeleton variant="rounded" width="100%" height={24} />
          </ListItemButton>
        ))}
      </List>
    );
  }
  return (
    <List component="nav" aria-label="Menú principal" dense>
      {menu.map((n) => (
        <Entry key={n.id} node={n} depth={0} collapsed={collapsed} onNavigate={onNavigate} />
      ))}
    </List>
  );
}
