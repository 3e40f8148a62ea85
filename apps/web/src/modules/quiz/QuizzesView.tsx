// Questionnaires on the generic screen; 'Preguntas' opens the editor of its questions.
import { QUIZ_KINDS, quizContract } from '@app/contracts';
import ListAlt from '@mui/icons-material/ListAlt';
import { IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { usePermission } from '../../auth/session';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { QuestionsDialog } from './QuestionsDialog';

const KIND_OPTIONS = QUIZ_KINDS.map((k) => ({ id: k.id, name: k.name }));

export const quizScreen = defineScreen({
  contract: quizContract,
  manufacturerFilter: 'manufacturer_id',
  columns: [
    { field: 'title', flex: 2 },
    { field: 'manufacturer_name', sortable: false },
    {
      field: 'kind',
      width: 120,
      filter: { options: KIND_OPTIONS },
      render: (row) => KIND_OPTIONS.find((k) => k.id === row.kind)?.name ?? row.kind,
    },
    { field: 'question_count', width: 110, type: 'number', sortable: false },
  ],
  actionsWidth: 140,
  form: [
    { name: 'title', type: 'text', label: 'Titulo', required: true, maxLength: 200 },
    { name: 'description', type: 'textarea', label: 'Descripcion', maxLength: 1000, rows: 2 },
    {
      name: 'manufacturer_id',
      type: 'select',
      label: 'Marca',
      resource: 'manufacturers',
      clearable: true,
      helperText: 'Vacio = todas las marcas',
      cols: 6,
    },
    {
      name: 'kind',
      type: 'select',
      label: 'Tipo',
      options: KIND_OPTIONS,
      required: true,
      default: 'sales',
      cols: 6,
    },
    { name: 'active', type: 'switch', label: 'Habilitado', default: true },
  ],
  toBody: (values) => {
    const { questions: _q, question_count: _c, manufacturer_name: _m, ...rest } = values;
    return rest;
  },
});

export default function QuizzesView() {
  const [editing, setEditing] = useState<number | null>(null);
  const canUpdate = usePermission('Quizzes.update');
  const def = useMemo<ResourceScreenDef>(
    () => ({
      ...quizScreen,
      rowActions: (row) => (
        <Tooltip title={canUpdate ? 'Editar preguntas' : 'Ver preguntas'}>
          <IconButton size="small" aria-label="Preguntas" onClick={() => setEditing(row.id)}>
            <ListAlt fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    }),
    [canUpdate],
  );
  return (
    <>
      <ResourceScreen def={def} />
      <QuestionsDialog quizId={editing} readOnly={!canUpdate} onClose={() => setEditing(null)} />
    </>
  );
}
