// /sales (CEM): the sales list on the generic screen, filtered by sale date range, brand and dealer
// (toolbar selectors) and survey status; import from the template, survey invitations and
// reminders, a sale's answers and (administrators) the mail outbox.
import {
  DOCUMENT_TYPES,
  PAYMENT_METHODS,
  SALE_RULES,
  type SalesFilter,
  SURVEY_STATUSES,
  saleContract,
} from '@app/contracts';
import Forum from '@mui/icons-material/Forum';
import { Box, Chip, IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { dealerBranchField, dealerField } from '../../fields/shared';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { useGlobalFilters } from '../../shell/filters';
import { ResponsesDialog } from './ResponsesDialog';
import { SalesActions } from './SalesActions';

const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'warning'> = {
  sin_enviar: 'default',
  enviada: 'info',
  respondida: 'success',
  contacto_invalido: 'warning',
};

export function SurveyStatusChip({ status }: { status: string }) {
  const name = SURVEY_STATUSES.find((s) => s.id === status)?.name ?? status;
  return <Chip size="small" label={name} color={STATUS_COLOR[status] ?? 'default'} variant="outlined" />;
}

export const salesScreen = defineScreen({
  contract: saleContract,
  dealerFilter: 'dealer_id',
  manufacturerFilter: 'manufacturer_id',
  columns: [
    { field: 'sale_date', width: 105, type: 'date' },
    { field: 'dealer_name', flex: 1.3, sortable: false },
    { field: 'invoice', width: 110 },
    { field: 'buyer_name', flex: 1.5 },
    { field: 'email', flex: 1.3 },
    { field: 'vin', width: 175 },
    { field: 'manufacturer_name', width: 110, sortable: false },
    { field: 'model_name', flex: 1 },
    { field: 'year', width: 70 },
    {
      field: 'survey_status',
      width: 150,
      filter: { options: SURVEY_STATUSES.map((s) => ({ id: s.id, name: s.name })) },
      render: (row) => <SurveyStatusChip status={row.survey_status} />,
    },
  ],
  actionsWidth: 140,
  dialogWidth: 800,
  form: [
    dealerField(),
    dealerBranchField(),
    { name: 'sale_date', type: 'date', label: 'Fecha Venta', required: true, default: 'today', cols: 4 },
    { name: 'invoice', type: 'text', label: 'Factura', required: true, maxLength: 40, cols: 4 },
    {
      name: 'payment_method',
      type: 'select',
      label: 'Forma de Pago',
      options: PAYMENT_METHODS.map((p) => ({ id: p.id, name: p.name })),
      required: true,
      cols: 4,
    },
    { name: 'buyer_name', type: 'text', label: 'Cliente', required: true, maxLength: 200 },
    {
      name: 'document_type',
      type: 'select',
      label: 'Tipo Documento',
      options: DOCUMENT_TYPES.map((d) => ({ id: d.id, name: d.name })),
      required: true,
      cols: 4,
    },
    { name: 'document_number', type: 'text', label: 'Documento', required: true, maxLength: 20, cols: 4 },
    { name: 'phone', type: 'text', label: 'Telefono', maxLength: 30, cols: 4 },
    { name: 'email', type: 'email', label: 'Email' },
    { name: 'vin', type: 'text', label: 'VIN', required: true, maxLength: 17, cols: 6 },
    {
      name: 'year',
      type: 'number',
      label: 'Año',
      required: true,
      min: SALE_RULES.minYear,
      max: SALE_RULES.maxYear(),
      cols: 6,
    },
    { name: 'manufacturer_id', type: 'select', label: 'Marca', resource: 'manufacturers', required: true },
    {
      name: 'manufacturer_model_id',
      type: 'select',
      label: 'Modelo del catalogo',
      resource: 'manufacturer-models',
      dependsOn: { field: 'manufacturer_id', filter: 'manufacturer_id' },
      clearable: true,
      cols: 6,
    },
    { name: 'model_name', type: 'text', label: 'Modelo', required: true, maxLength: 150, cols: 6 },
    { name: 'seller', type: 'text', label: 'Vendedor', maxLength: 150 },
  ],
  toBody: (values) => {
    const { date_from: _f, date_to: _t, survey_status: _s, ...rest } = values as Record<string, unknown>;
    return rest;
  },
});

/** The list filters as sales-quiz-request takes them. */
export function currentFilters(
  range: { from: string; to: string },
  dealerId: number,
  manufacturerId: number,
  surveyStatus: string | null,
): SalesFilter {
  const f: SalesFilter = {};
  if (range.from) f.date_from = range.from;
  if (range.to) f.date_to = range.to;
  if (dealerId > 0) f.dealer_id = dealerId;
  if (manufacturerId > 0) f.manufacturer_id = manufacturerId;
  if (surveyStatus) f.survey_status = surveyStatus as SalesFilter['survey_status'];
  return f;
}

export default function SalesScreen() {
  const [range, setRange] = useState({ from: '', to: '' });
  const [selected, setSelected] = useState<number[]>([]);
  const [responsesOf, setResponsesOf] = useState<Record<string, any> | null>(null);
  const { dealerId, manufacturerId } = useGlobalFilters();
  const [sp] = useSearchParams();
  const surveyStatus = sp.get('filter[survey_status]');
  const filters = useMemo(
    () => currentFilters(range, dealerId, manufacturerId, surveyStatus),
    [range, dealerId, manufacturerId, surveyStatus],
  );

  const def = useMemo<ResourceScreenDef>(() => {
    const fixed: Record<string, string> = {};
    if (range.from) fixed.date_from = range.from;
    if (range.to) fixed.date_to = range.to;
    return {
      ...salesScreen,
      fixedFilters: fixed,
      onSelectionChange: setSelected,
      rowActions: (row) => (
        <Tooltip title="Respuestas de la encuesta">
          <IconButton size="small" aria-label="Respuestas" onClick={() => setResponsesOf(row)}>
            <Forum fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
      header: (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
          <DateRangeFilter
            value={range}
            onChange={setRange}
            labels={['Fecha Venta desde', 'Fecha Venta hasta']}
            width={200}
          />
          <Box sx={{ flex: 1 }} />
          <SalesActions filters={filters} selected={selected} />
        </Box>
      ),
    };
  }, [range, selected, filters]);

  return (
    <>
      <ResourceScreen def={def} />
      <ResponsesDialog sale={responsesOf} onClose={() => setResponsesOf(null)} />
    </>
  );
}
