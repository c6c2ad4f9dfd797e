/** The models this user's group may call; a click copies the name. Long lists start collapsed. */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../shared/errors';
import { useClipboard } from '../shared/useClipboard';

export const MODELS_COLLAPSED_COUNT = 10;
export const MODELS_EXPANDED_KEY = 'modelsExpanded';

export function ModelsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [expanded, setExpanded] = useState(() => localStorage.getItem(MODELS_EXPANDED_KEY) === 'true');

  const gateway = useGateway();
  const read = useQuery({ queryKey: ['my-models'], queryFn: () => gateway.getMyModels(), retry: false });
  const { error } = read;
  // A failed read shows as an empty list, with its reason.
  const models = error ? [] : (read.data ?? null);
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);

  const toggle = () => {
    localStorage.setItem(MODELS_EXPANDED_KEY, String(!expanded));
    setExpanded(!expanded);
  };

  const list = models ?? [];
  const shown = expanded ? list : list.slice(0, MODELS_COLLAPSED_COUNT);
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('pages.personal.models.title')}
        </Typography>
        {models !== null && list.length === 0 && (
          <Typography color="text.secondary">{translate('pages.personal.models.empty')}</Typography>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {shown.map((model) => (
            <Chip key={model} label={model} onClick={() => copy(model)} variant="outlined" />
          ))}
        </Box>
        {list.length > MODELS_COLLAPSED_COUNT && (
          <Button size="small" onClick={toggle} sx={{ mt: 1 }}>
            {expanded
              ? translate('pages.personal.models.collapse')
              : translate('pages.personal.models.expand', { count: list.length - MODELS_COLLAPSED_COUNT })}
          </Button>
        )}
      </CardContent>
      {dialog}
    </Card>
  );
}
