/**
 * A finished video's player: a button opening a dialog with a `<video>` whose source is the
 * gateway's own owner-checked address (streamed from the vendor; no vendor URL reaches the page).
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutline';
import { useTranslate } from 'react-admin';

/** Where the console plays a video from (the session cookie authorizes it). */
export const videoContentUrl = (taskId: string) => `/api/task/video/${encodeURIComponent(taskId)}/content`;

export function VideoCell({ platform, status, taskId }: { platform: string; status: string; taskId: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (platform !== 'video' || status !== 'SUCCESS') return null;
  return (
    <>
      <Button size="small" startIcon={<PlayCircleOutlineIcon />} onClick={() => setOpen(true)} sx={{ whiteSpace: 'nowrap' }}>
        {translate('resources.task.video.play')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth>
        <DialogTitle sx={{ wordBreak: 'break-all' }}>{translate('resources.task.video.title', { id: taskId })}</DialogTitle>
        <DialogContent>
          {open && (
            <video
              controls
              autoPlay
              preload="metadata"
              src={videoContentUrl(taskId)}
              style={{ display: 'block', width: '100%', maxHeight: '70vh' }}
              data-testid="task-video"
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('resources.task.video.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
