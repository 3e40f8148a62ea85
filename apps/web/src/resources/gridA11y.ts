import type { DataGridProps } from '@mui/x-data-grid';

/**
 * The slot props that keep a loading DataGrid valid for assistive technology (issue 27, item 8):
 * MUI renders its loading overlay (a progress bar) inside the element with role="grid", where
 * only rows may be (axe's aria-required-children, critical). The bar is hidden from assistive
 * technology and the grid says it is busy instead (`aria-busy`), as ARIA intends for a grid
 * whose rows are being replaced; the bar still shows for the eye.
 */
export function loadingGridSlotProps(loading: boolean): DataGridProps['slotProps'] {
  return {
    main: { 'aria-busy': loading },
    loadingOverlay: { 'aria-hidden': true },
  };
}
