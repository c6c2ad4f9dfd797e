/** List cells of a model row: its tags as chips, and the served models it matches. */
import { Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ModelRecord } from './types';

export function splitTags(tags: string): string[] {
  return tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

export function TagsCell({ record }: { record: ModelRecord }) {
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      {splitTags(record.tags).map((tag) => (
        <Chip key={tag} size="small" variant="outlined" label={tag} />
      ))}
    </Stack>
  );
}

export function MatchedCell({ record }: { record: ModelRecord }) {
  const translate = useTranslate();
  if (record.matched_count === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.model.matched_none')}
      </Typography>
    );
  }
  return (
    <Tooltip title={record.matched_models.join(', ')}>
      <span>{translate('resources.model.matched', { smart_count: record.matched_count })}</span>
    </Tooltip>
  );
}
