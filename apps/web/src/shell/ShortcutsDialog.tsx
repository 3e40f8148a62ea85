// The keyboard shortcuts of SPEC §2, listed in the help dialog (Alt+H).
import { Dialog, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from '@mui/material';

export const SHORTCUTS: [string, string][] = [
  ['Alt+H', 'Ayuda: atajos de teclado'],
  ['Ctrl+K o /', 'Buscar en todo el sistema'],
  ['Alt+F', 'Pantalla completa'],
  ['Alt+M', 'Mostrar u ocultar el menú'],
  ['Alt+R', 'Actualizar la lista'],
  ['Alt+N', 'Nuevo registro'],
  ['Alt+A', 'Agregar'],
  ['Alt+E', 'Exportar a Excel'],
  ['Esc', 'Cerrar la ventana'],
  ['Alt+C', 'Cancelar'],
  ['Alt+G', 'Guardar'],
  ['Alt+P', 'Imprimir'],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Atajos de teclado</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableBody>
            {SHORTCUTS.map(([keys, what]) => (
              <TableRow key={keys}>
                <TableCell sx={{ fontFamily: 'monospace', fontWeight: 600, width: 90 }}>{keys}</TableCell>
                <TableCell>{what}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
    </Dialog>
  );
}
