/**
 * /chat/{id} and /chat2link: a chat link built from the person's first enabled token.
 * /chat/{id} shows the configured chat client `id` in a frame; /chat2link goes to `chat_link`.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { storedUser } from '../../api/client';
import { storedStatus, useReloadStatus, type SiteStatus } from '../../status/status';
import { useGateway, type GatewayDataProvider } from '../../api/customMethods';
import { withPrefix } from '../../resources/token/keys';
import { buildChatLink, ChatLinkError, chatLinkTemplate, chatTemplateAt, serverAddress } from './chatLink';

/** How long the "no enabled token" message shows before going to /token. */
export const NO_TOKEN_REDIRECT_MS = 1500;

type State = { kind: 'loading' } | { kind: 'ready'; url: string } | { kind: 'error'; message: string };

/** The freshest status: asked again, the local copy if the server cannot answer. */
async function currentStatus(reload: () => Promise<SiteStatus>): Promise<SiteStatus> {
  try {
    return await reload();
  } catch (error) {
    const stored = storedStatus();
    if (stored) return stored;
    throw error;
  }
}

/** The route's chat link: template from the status, key of the first enabled token. */
async function chatLinkFor(
  gateway: GatewayDataProvider,
  index: number | null,
  reload: () => Promise<SiteStatus>,
): Promise<string> {
  const status = await currentStatus(reload);
  const template = index === null ? chatLinkTemplate(status) : chatTemplateAt(status.chats, index);
  const token = await gateway.firstEnabledToken();
  if (!token) throw new ChatLinkError('no_enabled_token');
  return buildChatLink(template, withPrefix(await gateway.revealTokenKey(token.id)), serverAddress(status));
}

export default function ChatPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { id } = useParams();
  const direct = pathname.startsWith('/chat2link');
  const index = direct ? null : id === undefined ? 0 : Number(id);
  const loggedIn = storedUser() !== null;
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [frameLoaded, setFrameLoaded] = useState(false);
  const reloadStatus = useReloadStatus();
  const gateway = useGateway();

  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ kind: 'loading' });
    setFrameLoaded(false);
    chatLinkFor(gateway, index, reloadStatus)
      .then((url) => {
        if (!live) return;
        if (direct) window.location.assign(url);
        else setState({ kind: 'ready', url });
      })
      .catch((error: unknown) => {
        if (!live) return;
        const message = error instanceof Error ? error.message : 'app.error.request_failed';
        setState({ kind: 'error', message });
        if (error instanceof ChatLinkError && error.problem === 'no_enabled_token') {
          timer = setTimeout(() => void navigate('/token'), NO_TOKEN_REDIRECT_MS);
        }
      });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [loggedIn, index, direct, navigate, reloadStatus, gateway]);

  if (!loggedIn) return <Navigate to="/login" replace />;

  if (state.kind === 'error') {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{translate(state.message, { _: state.message })}</Alert>
      </Box>
    );
  }

  if (state.kind === 'loading') {
    return (
      <Stack direction="row" spacing={2} alignItems="center" justifyContent="center" sx={{ p: 6 }}>
        <CircularProgress size={24} />
        <Typography>{translate(direct ? 'resources.token.chat.redirecting' : 'resources.token.chat.loading')}</Typography>
      </Stack>
    );
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 56px)' }}>
      {!frameLoaded && (
        <Alert severity="info" icon={<CircularProgress size={18} />}>
          {translate('resources.token.chat.redirecting')}{' '}
          <Link href={state.url} target="_blank" rel="noopener noreferrer">
            {translate('resources.token.chat.open_new')}
          </Link>
        </Alert>
      )}
      <Box
        component="iframe"
        src={state.url}
        title={translate('resources.token.chat.frame_title')}
        onLoad={() => setFrameLoaded(true)}
        sx={{ flex: 1, width: '100%', border: 0 }}
      />
    </Box>
  );
}
