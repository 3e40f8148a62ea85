// The bar above a resource's grid: its title, the quick search, the saved views, 'Actualizar',
// 'Exportar a Excel' and 'Nuevo' (each by permission).
import Add from '@mui/icons-material/Add';
import FileDownload from '@mui/icons-material/FileDownload';
import Refresh from '@mui/icons-material/Refresh';
import Search from '@mui/icons-material/Search';
import { Box, Button, IconButton, InputAdornment, TextField, Tooltip, Typography } from '@mui/material';
import { SavedViews } from './SavedViews';

export function ResourceToolbar(p: {
  title: string;
  search: string;
  setSearch: (text: string) => void;
  refresh: () => void;
  /** Absent: no export button (no permission). */
  exportXlsx?: () => void;
  busy: boolean;
  /** Absent: no 'Nuevo' (no permission). */
  openNew?: () => void;
}) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
      <Typography variant="h6" sx={{ flex: 1, minWidth: 160 }}>
        {p.title}
      </Typography>
      <TextField
        placeholder="Buscar"
        value={p.search}
        onChange={(e) => p.setSearch(e.target.value)}
        sx={{ width: { xs: '100%', sm: 260 } }}
        fullWidth={false}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" />
              </InputAdornment>
            ),
          },
          htmlInput: { 'aria-label': 'Buscar' },
        }}
      />
      <SavedViews />
      <Tooltip title="Actualizar (Alt+R)">
        <IconButton aria-label="Actualizar" onClick={p.refresh}>
          <Refresh />
        </IconButton>
      </Tooltip>
      {p.exportXlsx && (
        <Button variant="outlined" startIcon={<FileDownload />} onClick={p.exportXlsx} disabled={p.busy}>
          Exportar a Excel
        </Button>
      )}
      {p.openNew && (
        <Button variant="contained" startIcon={<Add />} onClick={p.openNew}>
          Nuevo
        </Button>
      )}
    </Box>
  );
}
