// Venta Diaria: the month grid, a row per dealer and model, a column per day, edited like a
// spreadsheet (type, paste, copy a range; empty or 0 clears) with react-datasheet-grid. Save sends
// the changed cells (all or none, with a report); Formato_Daily to fill offline; the daily reports.
import {
  type DailyGrid,
  type DailyGridRow,
  type DailySaleEntryInput,
  dealerContract,
  dispatchCalls,
  formatCount,
  type ImportResult,
  limaDate,
  MONTHS,
  manufacturerModelContract,
  queryFor,
  REPORT_QUERIES,
  resourceCalls,
} from '@app/contracts';
import Add from '@mui/icons-material/Add';
import FileDownload from '@mui/icons-material/FileDownload';
import Save from '@mui/icons-material/Save';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Paper,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Column, DataSheetGrid, intColumn, keyColumn } from 'react-datasheet-grid';
import { MonthField, thisMonth, thisYear, YearField } from '../../fields/PeriodFields';
import 'react-datasheet-grid/dist/style.css';
import { SelectInput } from '../../fields/inputs/SelectInput';
import { apiPath, call, download, HttpError } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { UploadDialog } from '../../resources/UploadDialog';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { SHEET_KEYS_HELP, useSheetA11y } from '../../sheet/a11y';
import { useBrands } from './SummaryView';
import { brandLabel } from './shared';

type SheetRow = {
  key: string;
  dealer_id: number;
  model_id: number;
  dealer: string;
  model: string;
  total: number;
} & Record<string, number | string | null>;

const pad = (n: number) => String(n).padStart(2, '0');
/** The last row of the sheet: the day totals (read-only, never sent). */
const TOTAL_KEY = 'total';

/** A column of the sheet bound to one key of the row (the library's types are per value type). */
const cell = (key: string, kind: Partial<Column>): Partial<Column<SheetRow>> =>
  keyColumn<SheetRow, string>(key, kind);

function toSheet(g: DailyGrid): SheetRow[] {
  return g.rows.map((r: DailyGridRow) => {
    const row: SheetRow = {
      key: `${r.dealer_id}|${r.manufacturer_model_id}`,
      dealer_id: r.dealer_id,
      model_id: r.manufacturer_model_id,
      dealer: `${r.dealer_code} · ${r.dealer_name}`,
      model: `${r.manufacturer_name} ${r.model_name}`,
      total: r.total,
    };
    for (let d = 1; d <= g.days; d++) row[`d${d}`] = r.days[d] ?? null;
    return row;
  });
}

export default function DailyScreen() {
  const { dealerId, manufacturerId } = useGlobalFilters();
  const start = useUrlPeriod({ year: thisYear(), month: thisMonth() });
  const [year, setYear] = useState(start.year);
  const [month, setMonth] = useState(start.month);
  const [rows, setRows] = useState<SheetRow[]>([]);
  const [open, setOpen] = useState<'upload' | 'add' | null>(null);
  const [report, setReport] = useState<ImportResult | null>(null);
  const [saving, setSaving] = useState(false);
  const canStore = usePermission('DailySales.store');
  const canExport = usePermission('DailySales.export');
  const canInternal = usePermission('Transactions.export');
  const brands = useBrands();
  const queryClient = useQueryClient();
  const query = queryFor(REPORT_QUERIES.dailySales, {
    year,
    month,
    manufacturer: manufacturerId || '',
    dealer_id: dealerId || '',
  });
  const grid = useQuery({
    queryKey: ['daily-sales', query],
    queryFn: () => call(dispatchCalls.daily, { query }),
  });
  const saved = useMemo(() => (grid.data ? toSheet(grid.data) : []), [grid.data]);
  useEffect(() => {
    setRows(saved);
    setReport(null);
  }, [saved]);
  const days = grid.data?.days ?? 31;
  const today = limaDate();

  const columns = useMemo<Partial<Column<SheetRow>>[]>(() => {
    const dayCols = Array.from({ length: days }, (_, i): Partial<Column<SheetRow>> => {
      const d = i + 1;
      const future = `${year}-${pad(month)}-${pad(d)}` > today;
      return {
        ...cell(`d${d}`, intColumn),
        // Each cell is announced "Corolla · Autoespar, día 5" (sheet/a11y.ts).
        title: <span data-label={`día ${d}`}>{d}</span>,
        minWidth: 42,
        basis: 42,
        grow: 0,
        disabled:
          future || !canStore ? true : ({ rowData }: { rowData: SheetRow }) => rowData.key === TOTAL_KEY,
      };
    });
    return [
      ...dayCols,
      {
        ...cell('total', intColumn),
        title: 'Total',
        disabled: true,
        minWidth: 60,
        grow: 0,
      },
    ];
  }, [days, year, month, today, canStore]);
  // The grid, its rows (and the total row) and its columns (and the frozen one) for screen readers.
  const sheet = useRef<HTMLDivElement>(null);
  const sheetHelp = useSheetA11y(sheet, 'Venta diaria del mes', rows.length + 1, columns.length + 1);

  const original = useMemo(() => new Map(saved.map((r) => [r.key, r])), [saved]);
  const changes: DailySaleEntryInput[] = [];
  for (const r of rows) {
    const before = original.get(r.key);
    for (let d = 1; d <= days; d++) {
      const now = (r[`d${d}`] as number | null) ?? 0;
      const was = (before?.[`d${d}`] as number | null) ?? 0;
      if (now !== was)
        changes.push({
          dealer_id: r.dealer_id,
          manufacturer_model_id: r.model_id,
          sale_date: `${year}-${pad(month)}-${pad(d)}`,
          units: now,
        });
    }
  }

  const save = async () => {
    setSaving(true);
    setReport(null);
    try {
      const r = await call(dispatchCalls.dailySave, { body: { entries: changes } }, { silent: true });
      if (r.failed > 0) setReport(r);
      else {
        enqueueSnackbar('Guardado Correctamente', { variant: 'success' });
        await queryClient.invalidateQueries({ queryKey: ['daily-sales'] });
      }
    } catch (e) {
      enqueueSnackbar(e instanceof HttpError ? e.message : String(e), { variant: 'error' });
    } finally {
      setSaving(false);
    }
  };
  const brand = brandLabel(brands.data, manufacturerId) || 'Todas';
  const template = () =>
    void download(dispatchCalls.dailyTemplate, `Formato_Daily_${year}_${month}.xlsx`, { query });
  const totalsByDay = Array.from({ length: days }, (_, i) =>
    rows.reduce((a, r) => a + ((r[`d${i + 1}`] as number) ?? 0), 0),
  );
  const total = totalsByDay.reduce((a, b) => a + b, 0);
  const totalRow: SheetRow = {
    key: TOTAL_KEY,
    dealer_id: 0,
    model_id: 0,
    dealer: '',
    model: 'Total por día',
    total,
  };
  totalsByDay.forEach((t, i) => {
    totalRow[`d${i + 1}`] = t || null;
  });

  return (
    <Paper sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
        <YearField value={year} onChange={setYear} />
        <MonthField value={month} onChange={setMonth} />
        <Box sx={{ ml: 1 }}>
          <Typography variant="subtitle2" component="h2">
            Venta diaria de {MONTHS[month - 1].name} {year}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {brand === 'Todas' ? 'Todas las marcas' : brand} · {formatCount(total)} unidades
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        {canStore && (
          <Button startIcon={<Add />} onClick={() => setOpen('add')}>
            Agregar modelo
          </Button>
        )}
        <Button startIcon={<FileDownload />} onClick={template}>
          Formato Daily
        </Button>
        {canStore && (
          <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setOpen('upload')}>
            Cargar Formato
          </Button>
        )}
        {canExport && (
          <Button
            startIcon={<FileDownload />}
            onClick={() =>
              void download(dispatchCalls.dailyReport, `Reporte_Daily_${brand}_${year}_${month}.xlsx`, {
                query,
              })
            }
          >
            Reporte Daily
          </Button>
        )}
        {canInternal && (
          <Button
            startIcon={<FileDownload />}
            onClick={() =>
              void download(
                dispatchCalls.internalDailyReport,
                `Reporte_Daily_Interno_${brand}_${year}_${month}.xlsx`,
                {
                  body: { year, month, manufacturer: manufacturerId, dealer: dealerId },
                },
              )
            }
          >
            Reporte interno
          </Button>
        )}
        {canStore && (
          <Button
            variant="contained"
            startIcon={<Save />}
            disabled={changes.length === 0 || saving}
            onClick={() => void save()}
          >
            Guardar{changes.length ? ` (${changes.length})` : ''}
          </Button>
        )}
      </Box>
      {(grid.isFetching || saving) && <LinearProgress sx={{ mb: 1 }} />}
      {report && (
        <Alert severity="error" sx={{ mb: 1, whiteSpace: 'pre-line' }} onClose={() => setReport(null)}>
          No se guardó nada: {report.failed} cambios con errores.{'\n'}
          {report.report
            .filter((e) => !e.ok)
            .slice(0, 10)
            .map((e) => e.errors.join('; '))
            .join('\n')}
        </Alert>
      )}
      {rows.length === 0 && !grid.isFetching ? (
        <Alert severity="info">
          Sin ventas registradas en el mes. Use "Agregar modelo" o cargue el Formato Daily.
        </Alert>
      ) : (
        <Box
          ref={sheet}
          aria-label="Venta diaria del mes"
          role="region"
          sx={{ '.dsg-container': { fontSize: 13 } }}
        >
          <span id={sheetHelp} hidden>
            {SHEET_KEYS_HELP}
          </span>
          <DataSheetGrid<SheetRow>
            value={[...rows, totalRow]}
            onChange={(v) =>
              setRows(
                v.slice(0, -1).map((r) => ({
                  ...r,
                  total: Array.from({ length: days }, (_, i) => (r[`d${i + 1}`] as number) ?? 0).reduce(
                    (a, b) => a + b,
                    0,
                  ),
                })),
              )
            }
            columns={columns}
            lockRows
            rowKey="key"
            // The dealer and model stay in view while the days scroll (the gutter is the grid's frozen column).
            gutterColumn={{
              basis: 330,
              minWidth: 330,
              title: 'Concesionario / Modelo',
              component: ({ rowData }) => (
                <Box
                  sx={{
                    px: 1,
                    width: '100%',
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                    fontSize: 13,
                  }}
                  title={`${rowData.dealer} · ${rowData.model}`}
                >
                  <b>{rowData.model}</b>
                  {rowData.dealer ? ` · ${rowData.dealer}` : ''}
                </Box>
              ),
            }}
            height={Math.min(560, 80 + rows.length * 40)}
          />
        </Box>
      )}
      <UploadDialog
        open={open === 'upload'}
        title={`Cargar Formato Daily ${MONTHS[month - 1].name} ${year}`}
        help={`Complete Formato_Daily_${year}_${month}.xlsx: una fila por concesionario y modelo, una columna por día (vacío no cambia, 0 borra).`}
        url={`${apiPath(dispatchCalls.dailyImport)}?year=${year}&month=${month}`}
        jobKind="daily-sales-import"
        template={template}
        onClose={() => setOpen(null)}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['daily-sales'] })}
      />
      <AddModelDialog
        open={open === 'add'}
        onClose={() => setOpen(null)}
        manufacturerId={manufacturerId}
        dealerId={dealerId}
        onAdd={(row) => {
          if (rows.some((r) => r.key === row.key)) return;
          const blank: SheetRow = { ...row, total: 0 };
          for (let d = 1; d <= days; d++) blank[`d${d}`] = null;
          setRows([...rows, blank]);
        }}
      />
    </Paper>
  );
}

function AddModelDialog({
  open,
  onClose,
  onAdd,
  manufacturerId,
  dealerId,
}: {
  open: boolean;
  onClose: () => void;
  onAdd: (row: Pick<SheetRow, 'key' | 'dealer_id' | 'model_id' | 'dealer' | 'model'>) => void;
  manufacturerId: number;
  dealerId: number;
}) {
  const [dealer, setDealer] = useState(dealerId);
  const [model, setModel] = useState(0);
  useEffect(() => setDealer(dealerId), [dealerId]);
  // Dealers and models are big catalogues: searched as typed, the chosen ones read by id.
  const d = useQuery({
    queryKey: ['options', 'dealers', 'one', String(dealer)],
    queryFn: () =>
      call(resourceCalls(dealerContract).get, { params: { id: dealer } }) as Promise<{
        id: number;
        code: string;
        name: string;
      }>,
    enabled: open && dealer > 0,
  }).data;
  const m = useQuery({
    queryKey: ['options', 'manufacturer-models', 'one', String(model)],
    queryFn: () =>
      call(resourceCalls(manufacturerModelContract).get, { params: { id: model } }) as Promise<{
        id: number;
        name: string;
        manufacturer_name?: string;
      }>,
    enabled: open && model > 0,
  }).data;
  const dispatched = useQuery({
    queryKey: ['dealer-models', dealer, manufacturerId],
    queryFn: () =>
      call(dispatchCalls.dealerModels, { query: { dealer_id: dealer, manufacturer: manufacturerId || '' } }),
    enabled: open && dealer > 0,
  });
  // The models the dealer received are offered before typing; any other is searched.
  const received = useMemo(
    () =>
      (dispatched.data?.data ?? []).map((x) => ({
        id: x.manufacturer_model_id,
        name: `${x.model_name} (despachado)`,
      })),
    [dispatched.data],
  );
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Agregar modelo al mes</DialogTitle>
      <DialogContent dividers sx={{ display: 'grid', gap: 2 }}>
        <SelectInput
          field={{ name: 'dealer_id', type: 'select', label: 'Concesionario', resource: 'dealers' }}
          value={dealer || null}
          onChange={(v) => setDealer(Number(v) || 0)}
        />
        <SelectInput
          field={{
            name: 'manufacturer_model_id',
            type: 'select',
            label: 'Modelo',
            resource: 'manufacturer-models',
            options: received,
            filter: manufacturerId ? { manufacturer_id: manufacturerId } : undefined,
          }}
          value={model || null}
          onChange={(v) => setModel(Number(v) || 0)}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button
          variant="contained"
          disabled={!d || !m}
          onClick={() => {
            if (!d || !m) return;
            onAdd({
              key: `${d.id}|${m.id}`,
              dealer_id: d.id,
              model_id: m.id,
              dealer: `${d.code} · ${d.name}`,
              model: `${m.manufacturer_name ?? ''} ${m.name}`.trim(),
            });
            onClose();
          }}
        >
          Agregar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
