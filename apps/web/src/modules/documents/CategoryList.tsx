// The extranet's categories: 'Todos los documentos' and the tree, each with its count and (for a
// dealer user) how many it has not read.
import Folder from '@mui/icons-material/Folder';
import FolderOpen from '@mui/icons-material/FolderOpen';
import {
  Badge,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import type { TreeItem } from './categoryTree';

export function CategoryList({
  tree,
  category,
  choose,
  allCount,
  allUnread,
  manager,
}: {
  tree: TreeItem[];
  category: number | null;
  choose: (id: number | null) => void;
  allCount: number;
  allUnread: number;
  manager: boolean;
}) {
  return (
    <Paper variant="outlined" sx={{ width: { xs: '100%', md: 280 }, flexShrink: 0 }}>
      <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
        Categorías
      </Typography>
      <List dense aria-label="Categorías">
        <ListItem disablePadding>
          <ListItemButton selected={category === null} onClick={() => choose(null)}>
            <ListItemIcon sx={{ minWidth: 32 }}>
              <FolderOpen fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Todos los documentos" />
            <Counts count={allCount} unread={manager ? 0 : allUnread} />
          </ListItemButton>
        </ListItem>
        {tree.map((c) => (
          <ListItem key={c.id} disablePadding>
            <ListItemButton
              selected={category === c.id}
              onClick={() => choose(c.id)}
              sx={{ pl: 2 + c.depth * 2.5 }}
            >
              <ListItemIcon sx={{ minWidth: 32 }}>
                {category === c.id ? <FolderOpen fontSize="small" /> : <Folder fontSize="small" />}
              </ListItemIcon>
              <ListItemText primary={c.name} />
              <Counts count={c.count} unread={manager ? 0 : c.unread} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}

function Counts({ count, unread }: { count: number; unread: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {unread > 0 && (
        <Badge
          color="primary"
          badgeContent={unread}
          max={99}
          aria-label={`${unread} sin leer`}
          sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
        />
      )}
      <Typography variant="caption" color="text.secondary">
        {count}
      </Typography>
    </Stack>
  );
}
