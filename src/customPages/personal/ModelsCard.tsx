/** The models this user's group may call; a click copies the name. Long lists start collapsed. */
import { useEffect, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { api } from '../../api/client';
import { errorMessage } from '../shared/errors';
import { useClipboard } from '../shared/useClipboard';

export const MODELS_COLLAPSED_COUNT = 10;
export const MODELS_EXPANDED_KEY = 'modelsExpanded';

export function ModelsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const { copy, dialog } = useClipboard();
  const [models, setModels] = useState<string[] | null>(null);
  const [expanded, setExpanded] = useState(() => localStorage.getItem(MODELS_EXPANDED_KEY) === 'true');

  useEffect(() => {
    api
      .get<string[]>('/api/user/models')
      .then((list) => setModels(list ?? []))
      .catch((err: unknown) => {
        setModels([]);
        notify(errorMessage(err), { type: 'error' });
      });
  }, [notify]);

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
