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
import { useQuery } from '@tanstack/react-query';
import { useTranslate, type Identifier } from 'react-admin';
import { useGateway } from '../../api/customMethods';

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
  const gateway = useGateway();
  const { data, error, isPending } = useQuery({
    queryKey: ['log-extend', String(id)],
    queryFn: () => gateway.getLogExtend(String(id)),
    enabled: id !== null,
    retry: false,
  });
  const loading = id !== null && isPending;
  return (
    <Dialog open={id !== null} onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{translate('resources.log.extend.title', { id: id ?? '' })}</DialogTitle>
      <DialogContent>
        {loading && <CircularProgress size={24} />}
        {!loading && error && <Alert severity="error">{translate(error.message, { _: error.message })}</Alert>}
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
