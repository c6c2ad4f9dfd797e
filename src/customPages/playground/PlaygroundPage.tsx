/**
 * /playground: chat with a model through the gateway using the console session.
 * Settings on the left (group, model, temperature, max tokens, system prompt), the chat on the
 * right; answers stream in and can be stopped.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteSweepIcon from '@mui/icons-material/DeleteSweep';
import SendIcon from '@mui/icons-material/Send';
import StopIcon from '@mui/icons-material/Stop';
import { storedUser } from '../../api/client';
import { useGateway } from '../../api/customMethods';
import type { PricingAnswer, PricingItem } from '../pricing/pricing';
import { initialGroup } from '../pricing/pricing';
import { errorMessage } from '../shared/errors';
import { appendDelta, conversation, DEFAULT_SETTINGS, TEMPERATURE, update, type Message, type Settings } from './messages';
import { ChatError, streamChat } from './stream';

const T = 'playground.';

interface Choices {
  groups: Array<{ name: string; desc: string; ratio: number }>;
  items: PricingItem[];
}

/** Groups and the models each serves, from the pricing table (the caller's usable groups). */
function choicesOf(answer: PricingAnswer): Choices & { initial: string } {
  const usable = answer.usable_group;
  return {
    groups: Object.entries(usable).map(([name, info]) => ({ name, desc: info.desc, ratio: info.ratio })),
    items: answer.data,
    initial: initialGroup({ usable_group: usable }, storedUser()?.group),
  };
}

const NO_CHOICES: Choices = { groups: [], items: [] };

function MessageBubble({ message }: { message: Message }) {
  const translate = useTranslate();
  const mine = message.role === 'user';
  return (
    <Stack alignItems={mine ? 'flex-end' : 'flex-start'} data-testid={`message-${message.role}`} data-status={message.status}>
      <Typography variant="caption" color="text.secondary">
        {translate(mine ? `${T}you` : `${T}assistant`)}
      </Typography>
      <Paper
        variant="outlined"
        sx={{
          px: 1.5,
          py: 1,
          maxWidth: '85%',
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
          bgcolor: mine ? 'action.selected' : 'background.paper',
          borderColor: message.status === 'error' ? 'error.main' : 'divider',
        }}
      >
        {message.status === 'loading' && (
          <Stack direction="row" spacing={1} alignItems="center">
            <CircularProgress size={14} />
            <Typography variant="body2" color="text.secondary">
              {translate(`${T}status.loading`)}
            </Typography>
          </Stack>
        )}
        {message.content !== '' && <Typography variant="body2">{message.content}</Typography>}
        {message.status === 'incomplete' && (
          <Typography variant="caption" color="text.secondary" aria-live="polite">
            {translate(`${T}status.incomplete`)}
          </Typography>
        )}
        {message.stopped && (
          <Typography variant="caption" color="text.secondary" component="div">
            {translate(`${T}status.stopped`)}
          </Typography>
        )}
        {message.status === 'error' && (
          <Typography variant="body2" color="error" role="alert">
            {translate(message.error ?? `${T}error.stream`, { _: message.error ?? '' })}
          </Typography>
        )}
      </Paper>
    </Stack>
  );
}

export default function PlaygroundPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [params, setParams] = useSearchParams();
  const expired = params.get('expired') === 'true';
  const [settings, setSettings] = useState<Settings>(DEFAULT_SETTINGS);
  const [messages, setMessages] = useState<Message[]>([]);
  const [input, setInput] = useState('');
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const bottom = useRef<HTMLDivElement | null>(null);
  const set = <K extends keyof Settings>(key: K, value: Settings[K]) => setSettings((s) => ({ ...s, [key]: value }));

  const gateway = useGateway();
  const pricing = useQuery({ queryKey: ['pricing'], queryFn: () => gateway.getPricing(), retry: false });
  const loaded = useMemo(() => (pricing.data ? choicesOf(pricing.data) : null), [pricing.data]);
  const choices = loaded ?? NO_CHOICES;
  useEffect(() => {
    if (loaded) setSettings((s) => (s.group ? s : { ...s, group: loaded.initial }));
  }, [loaded]);
  const { error } = pricing;
  useEffect(() => {
    if (error) notify(errorMessage(error), { type: 'error' });
  }, [error, notify]);

  // Stop a running answer when leaving the page.
  useEffect(() => () => abort.current?.abort(), []);

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [messages]);

  const models = choices.items
    .filter((i) => !settings.group || i.enable_groups.includes(settings.group))
    .map((i) => i.model_name);

  const send = () => {
    const text = input.trim();
    if (!text || busy || !settings.model.trim()) return;
    const question: Message = { id: nextId.current++, role: 'user', content: text, status: 'complete' };
    const answerId = nextId.current++;
    const answer: Message = { id: answerId, role: 'assistant', content: '', status: 'loading' };
    const history = [...messages, question];
    setMessages([...history, answer]);
    setInput('');
    setBusy(true);
    const controller = new AbortController();
    abort.current = controller;
    streamChat(
      {
        model: settings.model.trim(),
        group: settings.group,
        messages: conversation(history, settings.system_prompt),
        temperature: settings.temperature,
        max_tokens: settings.max_tokens,
      },
      controller.signal,
      (delta) => setMessages((list) => appendDelta(list, answerId, delta)),
    )
      .then(() => setMessages((list) => update(list, answerId, () => ({ status: 'complete' }))))
      .catch((err: unknown) => {
        if (controller.signal.aborted) {
          setMessages((list) => update(list, answerId, () => ({ status: 'complete', stopped: true })));
          return;
        }
        if (err instanceof ChatError && err.expired) setParams({ expired: 'true' }, { replace: true });
        const message = err instanceof ChatError ? err.message : `Error: ${errorMessage(err)}`;
        setMessages((list) => update(list, answerId, () => ({ status: 'error', error: message })));
      })
      .finally(() => {
        if (abort.current === controller) abort.current = null;
        setBusy(false);
      });
  };

  const stop = () => abort.current?.abort();

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      {expired && (
        <Alert
          severity="error"
          action={
            <Button component={RouterLink} to="/login?expired=true" color="inherit" size="small">
              {translate(`${T}login`)}
            </Button>
          }
        >
          {translate(`${T}expired`)}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="stretch">
        <Paper component="aside" aria-label={translate(`${T}settings`)} sx={{ p: 2, width: { md: 300 }, flexShrink: 0 }}>
          <Stack spacing={2}>
            <Typography variant="subtitle1" component="h2">
              {translate(`${T}settings`)}
            </Typography>
            <TextField
              select
              size="small"
              label={translate(`${T}group`)}
              value={choices.groups.some((g) => g.name === settings.group) ? settings.group : ''}
              onChange={(e) => set('group', e.target.value)}
            >
              {choices.groups.map((g) => (
                <MenuItem key={g.name} value={g.name}>
                  {translate(`${T}group_option`, { group: g.name, desc: g.desc, ratio: g.ratio })}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              freeSolo
              size="small"
              options={models}
              value={settings.model}
              onInputChange={(_event, value) => set('model', value)}
              renderInput={(props) => <TextField {...props} label={translate(`${T}model`)} />}
            />
            <Box>
              <Typography id="playground-temperature" variant="body2" gutterBottom>
                {translate(`${T}temperature`, { value: settings.temperature })}
              </Typography>
              <Slider
                aria-labelledby="playground-temperature"
                min={TEMPERATURE.min}
                max={TEMPERATURE.max}
                step={TEMPERATURE.step}
                marks
                value={settings.temperature}
                onChange={(_event, value) => set('temperature', Array.isArray(value) ? (value[0] ?? 0) : value)}
                valueLabelDisplay="auto"
              />
            </Box>
            <TextField
              size="small"
              type="number"
              label={translate(`${T}max_tokens`)}
              helperText={translate(`${T}max_tokens_hint`)}
              value={settings.max_tokens}
              onChange={(e) => set('max_tokens', Math.max(0, Math.trunc(Number(e.target.value)) || 0))}
              slotProps={{ htmlInput: { min: 0, step: 1 } }}
            />
            <TextField
              multiline
              minRows={4}
              size="small"
              label={translate(`${T}system_prompt`)}
              value={settings.system_prompt}
              onChange={(e) => set('system_prompt', e.target.value)}
            />
          </Stack>
        </Paper>
        <Paper sx={{ p: 2, flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: 480 }}>
          <Box role="log" aria-label={translate(`${T}chat`)} sx={{ flex: 1, overflowY: 'auto', maxHeight: '60vh', mb: 2 }}>
            {messages.length === 0 ? (
              <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 8 }}>
                {translate(`${T}empty`)}
              </Typography>
            ) : (
              <Stack spacing={1.5}>
                {messages.map((m) => (
                  <MessageBubble key={m.id} message={m} />
                ))}
              </Stack>
            )}
            <div ref={bottom} />
          </Box>
          <Stack direction="row" spacing={1} alignItems="flex-end">
            <TextField
              multiline
              maxRows={6}
              fullWidth
              size="small"
              label={translate(`${T}input`)}
              placeholder={translate(`${T}input_hint`)}
              value={input}
              onChange={(e) => setInput(e.target.value)}
              onKeyDown={onKeyDown}
            />
            {busy ? (
              <Button
                variant="outlined"
                color="warning"
                startIcon={<StopIcon />}
                onClick={stop}
                sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
              >
                {translate(`${T}stop`)}
              </Button>
            ) : (
              <Button
                variant="contained"
                startIcon={<SendIcon />}
                onClick={send}
                sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
                disabled={!input.trim() || !settings.model.trim()}
              >
                {translate(`${T}send`)}
              </Button>
            )}
            <Button
              variant="text"
              startIcon={<DeleteSweepIcon />}
              onClick={() => setMessages([])}
              sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
              disabled={busy || messages.length === 0}
            >
              {translate(`${T}clear`)}
            </Button>
          </Stack>
        </Paper>
      </Stack>
    </Stack>
  );
}
