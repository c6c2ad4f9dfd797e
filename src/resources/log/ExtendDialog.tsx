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

function Block({ title, text, truncated = false }: { title: string; text: string; truncated?: boolean }) {
  const translate = useTranslate();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2">
        {title}
        {truncated && (
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {translate('resources.log.extend.truncated')}
          </Typography>
        )}
      </Typography>
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

/** The request and answer bodies kept for the row's call (opt-in body logs), when there are. */
function KeptBodies({ id }: { id: Identifier }) {
  const translate = useTranslate();
  const gateway = useGateway();
  const { data } = useQuery({
    queryKey: ['log-body', String(id)],
    queryFn: () => gateway.getLogBody(String(id)),
    retry: false,
  });
  if (!data) return null;
  return (
    <>
      <Block title={translate('resources.log.extend.request_body')} text={data.request_body} truncated={data.request_truncated} />
      <Block
        title={translate('resources.log.extend.response_body')}
        text={data.response_body}
        truncated={data.response_truncated}
      />
    </>
  );
}

/**
 * The prompt and completion kept with a log (GET /api/log/extend/{id}) and, when body logs kept
 * them, its call's request and answer bodies; opened by right-clicking its row.
 */
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
            <KeptBodies id={id!} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
