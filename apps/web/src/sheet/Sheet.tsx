// The spreadsheet of the monthly grids (figures, fees, capacities, and later daily sales), on
// react-datasheet-grid: arrow keys, Enter and Tab move, typing over a cell replaces it, a block
// copied from Excel pastes across rows and columns, Delete empties a selection. On top of it:
// numbers in es-PE with the currency sign, computed read-only columns, a total per row and total
// rows per column group, the cells changed since the last save marked, and one "save all".
import { Alert, Box, Button, Stack, Typography, useMediaQuery } from '@mui/material';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type CellProps,
  type Column,
  createTextColumn,
  type DataSheetGridRef,
  DynamicDataSheetGrid,
} from 'react-datasheet-grid';
import 'react-datasheet-grid/dist/style.css';
import { enqueueSnackbar } from 'notistack';
import { useHotkeys } from 'react-hotkeys-hook';
import { SHEET_KEYS_HELP, useSheetA11y } from './a11y';
import { formatNumber, type NumberKind, parseNumber, useCurrencySign } from './numbers';

/** The gutter's width on a phone (its name in two lines of 12 px). */
const PHONE_GUTTER = 136;

export type SheetRow = Record<string, unknown>;

export interface SheetColumn<R extends SheetRow> {
  /** The row field of the cell. */
  key: string;
  title: ReactNode;
  /** The column's name in each cell's accessible name ("Test drives, Enero"); default: the
   * title's text. */
  label?: string;
  width?: number;
  /** 'label': text, never edited. 'number': a value (editable, computed or read-only). */
  type: 'label' | 'number';
  /** How a number reads; per row when a grid mixes units (a concept in soles, another in %). */
  kind?: NumberKind | ((row: R) => NumberKind);
  /** Whether the user may type in it (per row, e.g. only in enabled months). */
  editable?: boolean | ((row: R) => boolean);
  /** A read-only value computed from the row as edited (available hours, compliance). */
  compute?: (row: R) => number | null;
  /** What the total rows show in this column: a sum (default), an average, or nothing. */
  total?: 'sum' | 'avg' | false;
  /** A measure's decimals, fixed (per row: a concept's own), so a column reads alike (1,083.0 over 1,145.6). */
  decimals?: (row: R) => number | undefined;
  /** Text of a cell that has no number (e.g. '—'). */
  empty?: string;
  /** Why a typed or pasted value is refused (a fractional count); the cell keeps its value. */
  refuse?: (row: R, value: number, key: string) => string | null;
  /** Why a value looks wrong though it is kept (beyond the plausible range): the cell is marked. */
  warn?: (row: R, value: number, key: string) => string | null;
}

export interface SheetTotalRow<R extends SheetRow> {
  label: string;
  /** The rows it adds up (default: all). */
  filter?: (row: R) => boolean;
  kind?: NumberKind;
}

export interface SheetChange<R extends SheetRow> {
  row: R;
  key: string;
  value: number | null;
}

export interface SheetProps<R extends SheetRow> {
  rows: R[];
  columns: SheetColumn<R>[];
  rowKey: (row: R) => string;
  /** A read-only column with each row's total of these columns (sum, or the row's own rule). */
  rowTotal?: { title: string; keys: string[]; aggregate?: (values: number[], row: R) => number | null };
  /** Total rows under the data, one per group (e.g. per unit); none when empty. */
  totals?: SheetTotalRow<R>[];
  /** Saves every changed cell at once; the grid keeps the changes when it fails. */
  onSave?: (changes: SheetChange<R>[]) => Promise<unknown>;
  /** Beside the save button (e.g. a confirm button). */
  actions?: ReactNode;
  /** Reports whether there are unsaved cells (e.g. to hold a confirm). */
  onDirtyChange?: (dirty: boolean) => void;
  /** Height in px; by default the rows' own, up to 600. */
  height?: number;
  /** A column to bring into view and start in (e.g. the month being filled). */
  startColumn?: string;
  /** Accessible name of the grid. */
  label: string;
  /** The header row's height in px (default 38, one line); taller for titles of two or three lines. */
  headerHeight?: number;
}

type GridRow<R> = R & { __key: string; __total?: string; __kind?: NumberKind };

const DIRTY = 'sheet-dirty';
const WARN = 'sheet-warn';

/** A refused value: said at once, the cell keeps what it had. */
const refused = (message: string) => enqueueSnackbar(message, { variant: 'error', preventDuplicate: true });

/** A column's header, carrying the name its cells are announced with (sheet/a11y.ts). */
function titleOf<R extends SheetRow>(col: SheetColumn<R>): ReactNode {
  return col.label ? <span data-label={col.label}>{col.title}</span> : col.title;
}

/** The text input of react-datasheet-grid, fed with one field of the row and its formatting. */
const TextCell = createTextColumn<number | null>().component!;

function numberColumn<R extends SheetRow>(
  col: SheetColumn<R>,
  currency: string,
  isDirty: (row: GridRow<R>, key: string) => boolean,
): Column<GridRow<R>> {
  const kindOf = (row: GridRow<R>): NumberKind =>
    row.__kind ?? (typeof col.kind === 'function' ? col.kind(row) : (col.kind ?? 'number'));
  const cellValue = (row: GridRow<R>) => {
    const v = col.compute && !row.__total ? col.compute(row) : row[col.key];
    return typeof v === 'number' ? v : null;
  };
  const editable = (row: GridRow<R>) =>
    !row.__total && !col.compute && (typeof col.editable === 'function' ? col.editable(row) : !!col.editable);
  const Cell = ({ rowData, setRowData, ...props }: CellProps<GridRow<R>, unknown>) => (
    <TextCell
      {...props}
      rowData={cellValue(rowData)}
      setRowData={(v: number | null) => setRowData({ ...rowData, [col.key]: v })}
      columnData={{
        alignRight: true,
        continuousUpdates: false,
        placeholder: '',
        parseUserInput: (text: string) => {
          const n = parseNumber(text, currency);
          if (n === undefined) return cellValue(rowData);
          const why = n === null ? null : col.refuse?.(rowData, n, col.key);
          if (why) {
            refused(why);
            return cellValue(rowData);
          }
          return n;
        },
        formatInputOnFocus: (v: number | null) => (v === null ? '' : String(v)),
        formatBlurredInput: (v: number | null) =>
          v === null
            ? (col.empty ?? '')
            : formatNumber(
                v,
                kindOf(rowData),
                currency,
                rowData.__total ? undefined : col.decimals?.(rowData as R),
              ),
      }}
    />
  );
  return {
    id: col.key,
    title: titleOf(col),
    basis: col.width ?? 110,
    grow: 0,
    shrink: 0,
    minWidth: col.width ?? 110,
    component: Cell as Column<GridRow<R>>['component'],
    disabled: ({ rowData }) => !editable(rowData),
    deleteValue: ({ rowData }) => (editable(rowData) ? { ...rowData, [col.key]: null } : rowData),
    copyValue: ({ rowData }) => cellValue(rowData),
    pasteValue: ({ rowData, value }) => {
      if (!editable(rowData)) return rowData;
      const n = parseNumber(String(value), currency);
      if (n === undefined) return rowData;
      const why = n === null ? null : col.refuse?.(rowData, n, col.key);
      if (why) {
        refused(why);
        return rowData;
      }
      return { ...rowData, [col.key]: n };
    },
    isCellEmpty: ({ rowData }) => cellValue(rowData) === null,
    cellClassName: ({ rowData }) =>
      [
        rowData.__total ? 'sheet-total' : '',
        editable(rowData) ? 'sheet-editable' : 'sheet-readonly',
        isDirty(rowData, col.key) ? DIRTY : '',
        warningOf(col, rowData) ? WARN : '',
      ].join(' '),
  };
}

/** The warning of a cell's value (none for totals, computed or empty cells). */
function warningOf<R extends SheetRow>(col: SheetColumn<R>, row: GridRow<R>): string | null {
  const v = row[col.key];
  if (!col.warn || row.__total || col.compute || typeof v !== 'number') return null;
  return col.warn(row, v, col.key);
}

function labelColumn<R extends SheetRow>(col: SheetColumn<R>): Column<GridRow<R>> {
  return {
    id: col.key,
    title: titleOf(col),
    basis: col.width ?? 160,
    grow: 0,
    shrink: 0,
    minWidth: col.width ?? 160,
    disabled: true,
    component: ({ rowData }) => (
      <Box
        component="span"
        title={String(rowData.__total ? '' : (rowData[col.key] ?? ''))}
        sx={{ px: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {rowData.__total ? '' : String(rowData[col.key] ?? '')}
      </Box>
    ),
    copyValue: ({ rowData }) => String(rowData[col.key] ?? ''),
    cellClassName: ({ rowData }) => (rowData.__total ? 'sheet-total' : 'sheet-readonly'),
  };
}

const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function Sheet<R extends SheetRow>(props: SheetProps<R>) {
  const {
    rows,
    columns,
    rowKey,
    rowTotal,
    totals,
    onSave,
    actions,
    onDirtyChange,
    height,
    startColumn,
    label,
    headerHeight,
  } = props;
  const grid = useRef<DataSheetGridRef>(null);
  const host = useRef<HTMLDivElement>(null);
  const currency = useCurrencySign();
  /** Edited cells by row key: the value typed, pasted or emptied. */
  const [draft, setDraft] = useState<Record<string, Record<string, number | null>>>({});
  const [saving, setSaving] = useState(false);
  const original = useMemo(() => new Map(rows.map((r) => [rowKey(r), r])), [rows, rowKey]);

  // New data from the server (after a save or another period) starts a clean grid.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on new rows only
  useEffect(() => setDraft({}), [rows]);

  const changes = useMemo(() => {
    const out: SheetChange<R>[] = [];
    for (const [key, cells] of Object.entries(draft)) {
      const row = original.get(key);
      if (!row) continue;
      for (const [k, v] of Object.entries(cells))
        if ((row[k] ?? null) !== v) out.push({ row, key: k, value: v });
    }
    return out;
  }, [draft, original]);
  /** What the unsaved values beyond their plausible range say (they are saved all the same). */
  const warnings = useMemo(
    () =>
      changes.flatMap((c) => {
        const col = columns.find((x) => x.key === c.key);
        const why = c.value === null ? null : col?.warn?.(c.row, c.value, c.key);
        return why ? [why] : [];
      }),
    [changes, columns],
  );
  const dirtyRef = useRef(false);
  useEffect(() => {
    const dirty = changes.length > 0;
    if (dirty !== dirtyRef.current) {
      dirtyRef.current = dirty;
      onDirtyChange?.(dirty);
    }
  }, [changes, onDirtyChange]);

  const isDirty = useCallback(
    (row: GridRow<R>, key: string) => {
      const cells = draft[row.__key];
      if (!cells || !(key in cells)) return false;
      return (original.get(row.__key)?.[key] ?? null) !== cells[key];
    },
    [draft, original],
  );

  const data = useMemo(() => {
    const body: GridRow<R>[] = rows.map((r) => {
      const key = rowKey(r);
      return { ...r, ...(draft[key] ?? {}), __key: key } as GridRow<R>;
    });
    const numberCols = columns.filter((c) => c.type === 'number');
    const rowSum = (row: GridRow<R>) => {
      if (!rowTotal) return null;
      const values = rowTotal.keys.map((k) => row[k]).filter((v): v is number => typeof v === 'number');
      if (!values.length) return null;
      return rowTotal.aggregate ? rowTotal.aggregate(values, row) : sumOf(values);
    };
    for (const row of body) if (rowTotal) (row as SheetRow).__rowTotal = rowSum(row);
    const footer: GridRow<R>[] = (totals ?? []).map((t, i) => {
      const members = body.filter((r) => !t.filter || t.filter(r));
      const out: SheetRow = { __key: `__total${i}`, __total: t.label, __kind: t.kind };
      for (const c of [...numberCols, ...(rowTotal ? [{ key: '__rowTotal', total: 'sum' as const }] : [])]) {
        if (c.total === false) continue;
        const values = members
          .map((r) => ('compute' in c && c.compute ? c.compute(r) : r[c.key]))
          .filter((v): v is number => typeof v === 'number');
        out[c.key] = values.length
          ? c.total === 'avg'
            ? sumOf(values) / values.length
            : sumOf(values)
          : null;
      }
      return out as GridRow<R>;
    });
    return [...body, ...footer];
  }, [rows, rowKey, draft, columns, rowTotal, totals]);

  // The first label column is the grid's gutter: it stays on the left while the months scroll.
  const [head, rest] = useMemo(
    () => (columns[0]?.type === 'label' ? [columns[0], columns.slice(1)] : [undefined, columns]),
    [columns],
  );
  // On a phone the gutter is narrow and its name takes two lines, so the month beside it shows
  // its whole number (a 250 px concept column left a phone 90 px, cutting figures mid-digit).
  const phone = useMediaQuery((t) => t.breakpoints.down('sm'));
  const gutterWidth = phone ? Math.min(head?.width ?? 220, PHONE_GUTTER) : (head?.width ?? 220);
  const gutter = useMemo(
    () =>
      head
        ? {
            title: head.title,
            basis: gutterWidth,
            minWidth: gutterWidth,
            component: ({ rowData }: { rowData: GridRow<R> }) => (
              <Box
                component="span"
                className={rowData.__total ? 'sheet-gutter-total' : undefined}
                title={String(rowData.__total ?? rowData[head.key] ?? '')}
                sx={{
                  px: 1,
                  width: 1,
                  textAlign: 'left',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                  ...(phone
                    ? {
                        display: '-webkit-box',
                        WebkitLineClamp: 2,
                        WebkitBoxOrient: 'vertical',
                        whiteSpace: 'normal',
                        fontSize: 12,
                        lineHeight: 1.2,
                      }
                    : { whiteSpace: 'nowrap' }),
                }}
              >
                {String(rowData.__total ?? rowData[head.key] ?? '')}
              </Box>
            ),
          }
        : false,
    [head, phone, gutterWidth],
  );

  const gridColumns = useMemo(() => {
    const out = rest.map((c) => (c.type === 'label' ? labelColumn(c) : numberColumn(c, currency, isDirty)));
    if (rowTotal)
      out.push(
        numberColumn<R>(
          {
            key: '__rowTotal',
            title: rowTotal.title,
            type: 'number',
            width: 130,
            kind: (row) => {
              const c = columns.find((x) => x.key === rowTotal.keys[0]);
              return typeof c?.kind === 'function' ? c.kind(row) : (c?.kind ?? 'number');
            },
          },
          currency,
          () => false,
        ),
      );
    return out;
  }, [rest, columns, currency, isDirty, rowTotal]);

  const onChange = useCallback(
    (next: GridRow<R>[]) => {
      setDraft((current) => {
        const out = { ...current };
        const editable = columns.filter((c) => c.type === 'number' && !c.compute && c.editable);
        for (const row of next) {
          if (row.__total) continue;
          const before = original.get(row.__key);
          if (!before) continue;
          const prev = data.find((d) => d.__key === row.__key);
          for (const c of editable) {
            const v = (row[c.key] ?? null) as number | null;
            if (prev && (prev[c.key] ?? null) === v) continue;
            out[row.__key] = { ...(out[row.__key] ?? {}), [c.key]: v };
          }
        }
        return out;
      });
    },
    [columns, original, data],
  );

  const save = useCallback(async () => {
    if (!onSave || !changes.length || saving) return;
    setSaving(true);
    try {
      await onSave(changes);
      setDraft({});
    } catch {
      // The client showed the error; the changes stay marked for another try.
    } finally {
      setSaving(false);
    }
  }, [onSave, changes, saving]);
  useHotkeys(
    'alt+g',
    (e) => {
      e.preventDefault();
      void save();
    },
    { enableOnFormTags: true },
    [save],
  );

  // Start in the column being filled: the grid scrolls to it and typing goes there.
  useEffect(() => {
    if (startColumn && rows.length) grid.current?.setActiveCell({ col: startColumn, row: 0 });
  }, [startColumn, rows]);

  const helpId = useSheetA11y(host, label, data.length, gridColumns.length + (gutter ? 1 : 0));

  return (
    <Box
      ref={host}
      aria-label={label}
      role="region"
      sx={{
        '& .dsg-container': { fontSize: 13 },
        '& .sheet-readonly': { bgcolor: 'grey.50', color: 'text.secondary' },
        '& .sheet-editable': { bgcolor: 'background.paper' },
        '& .sheet-total': { bgcolor: 'grey.100', fontWeight: 600, color: 'text.primary' },
        [`& .${DIRTY}`]: { bgcolor: '#fff4cc !important', boxShadow: 'inset 3px 0 0 #f0a500' },
        [`& .${WARN}`]: { boxShadow: 'inset 0 -3px 0 #c77700', color: '#8a4b00' },
        '& .dsg-input-align-right': { fontVariantNumeric: 'tabular-nums' },
        '& .dsg-cell-gutter': { justifyContent: 'flex-start', color: 'text.primary', bgcolor: 'grey.50' },
        '& .dsg-cell-gutter:has(.sheet-gutter-total)': { bgcolor: 'grey.100', fontWeight: 600 },
      }}
    >
      {onSave && (
        <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography
            variant="body2"
            color={changes.length ? 'warning.main' : 'text.secondary'}
            sx={{ flex: 1 }}
          >
            {changes.length
              ? `${changes.length} ${changes.length === 1 ? 'celda sin guardar' : 'celdas sin guardar'}`
              : 'Sin cambios pendientes'}
          </Typography>
          {actions}
          <Button onClick={() => setDraft({})} disabled={!changes.length || saving}>
            Descartar
          </Button>
          <Button variant="contained" onClick={() => void save()} disabled={!changes.length || saving}>
            {saving ? 'Guardando…' : 'Guardar cambios'}
          </Button>
        </Stack>
      )}
      {warnings.length > 0 && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {`${warnings.length === 1 ? 'Un valor fuera de lo habitual' : `${warnings.length} valores fuera de lo habitual`} (se guarda igual; revíselo): `}
          {warnings.slice(0, 5).join(' · ')}
          {warnings.length > 5 ? ` · y ${warnings.length - 5} más` : ''}
        </Alert>
      )}
      <span id={helpId} hidden>
        {SHEET_KEYS_HELP}
      </span>
      <DynamicDataSheetGrid<GridRow<R>>
        value={data}
        onChange={onChange}
        columns={gridColumns}
        rowKey="__key"
        lockRows
        disableContextMenu
        addRowsComponent={false}
        ref={grid}
        height={height ?? Math.min(600, (headerHeight ?? 38) + 2 + data.length * 34 + 3)}
        rowHeight={34}
        headerRowHeight={headerHeight ?? 38}
        gutterColumn={gutter}
      />
    </Box>
  );
}
