import { LIMITS } from '@app/contracts';
import { esES } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';

export const theme = createTheme(
  {
    palette: { primary: { main: LIMITS.primaryColor }, background: { default: '#f4f6f8' } },
    shape: { borderRadius: 6 },
    components: {
      MuiTextField: { defaultProps: { size: 'small', fullWidth: true } },
      MuiButton: { defaultProps: { disableElevation: true } },
    },
  },
  esES,
);
