import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useTranslate, type Identifier } from 'react-admin';
import type { LogExtend } from './types';
import { useApiGet } from './useApiGet';

function Block({ title, text }: { title: string; text: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2">{title}</Typography>
      <Box
        component="pre"
        sx={{
          m: 0,
          p: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          maxHeight: 320,
          overflow: 'auto',
        }}
      >
        {text || translate('resources.log.extend.empty')}
      </Box>
    </Box>
  );
}

/** The prompt and completion kept with a log (GET /api/log/extend/{id}), opened by right-clicking its row. */
export function ExtendDialog({ id, onClose }: { id: Identifier | null; onClose: () => void }) {
  const translate = useTranslate();
  const { data, error, loading } = useApiGet<LogExtend>(id === null ? null : `/api/log/extend/${encodeURIComponent(String(id))}`);
  return (
    <Dialog open={id !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{translate('resources.log.extend.title', { id: id ?? '' })}</DialogTitle>
      <DialogContent>
        {loading && <CircularProgress size={24} />}
        {!loading && error && <Alert severity="error">{translate(error, { _: error })}</Alert>}
        {!loading && data && (
          <>
            <Block title={translate('resources.log.extend.prompt')} text={data.prompt} />
            <Block title={translate('resources.log.extend.completion')} text={data.completion} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
