// /encuesta: the public satisfaction survey (no login). The quiz module replaces this page.
import { Box, Paper, Typography } from '@mui/material';

export default function PublicQuizPage() {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'background.default', p: 2 }}
    >
      <Paper sx={{ p: 5, maxWidth: 560, textAlign: 'center' }}>
        <Typography variant="h5" color="primary" gutterBottom>
          Encuesta de Satisfaccion
        </Typography>
        <Typography color="text.secondary">En construccion</Typography>
      </Paper>
    </Box>
  );
}
