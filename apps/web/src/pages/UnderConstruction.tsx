// Placeholder of the screens whose module has not landed yet.
import Construction from '@mui/icons-material/Construction';
import { Paper, Typography } from '@mui/material';
import { useLocation } from 'react-router';
import { screenByPath } from '../lib/screens';

export default function UnderConstruction() {
  const screen = screenByPath(useLocation().pathname);
  return (
    <Paper sx={{ p: 6, textAlign: 'center' }}>
      <Construction color="primary" sx={{ fontSize: 56 }} />
      <Typography variant="h5" sx={{ mt: 1 }}>
        {screen?.title}
      </Typography>
      <Typography color="text.secondary">En construcción</Typography>
    </Paper>
  );
}
