// Questionnaires on the generic screen; 'Preguntas' opens the editor of its questions.
import { quizContract } from '@app/contracts';
import ListAlt from '@mui/icons-material/ListAlt';
import { IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { usePermission } from '../../session/session';
import { QuestionsDialog } from './QuestionsDialog';

export const quizScreen = defineScreen({
  contract: quizContract,
  actionsWidth: 140,
  form: [
    'title',
    { name: 'description', rows: 2 },
    { name: 'manufacturer_id', helperText: 'Vacío = todas las marcas', cols: 6 },
    { name: 'kind', default: 'sales', cols: 6 },
    { name: 'active', default: true },
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
