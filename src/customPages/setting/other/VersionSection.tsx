/**
 * System information: the running version and start time (from /api/status), the release feed the
 * update check reads (UpdateCheckUrl) and the check itself, made by the server through its SSRF-safe
 * fetcher. The answer shows what the feed said; a missing or unreachable feed says so.
 */
import { useMutation } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../../api/customMethods';
import { formatTimestamp } from '../../../resources/schema/format';
import { useStatus } from '../../../status/status';
import { errorMessage } from '../../shared/errors';
import type { OptionsState } from '../useOptions';
import { OptionField, SettingSection, useSection } from '../system/SettingSection';
import { isHttpUrl } from '../system/systemForm';

const V = 'settings_system.version.';

function UpdateResult({ check }: { check: ReturnType<typeof useUpdateCheck> }) {
  const translate = useTranslate();
  if (check.isError) {
    return (
      <Alert severity="warning" sx={{ gridColumn: '1 / -1' }}>
        {translate(`${V}check_failed`)}: {translate(errorMessage(check.error), { _: errorMessage(check.error) })}
      </Alert>
    );
  }
  const answer = check.data;
  if (!answer) return null;
  if (!answer.update_available) {
    return (
      <Alert severity="success" sx={{ gridColumn: '1 / -1' }}>
        {translate(`${V}up_to_date`, { latest: answer.latest_version })}
      </Alert>
    );
  }
  return (
    <Alert severity="info" sx={{ gridColumn: '1 / -1' }}>
      {translate(`${V}update_available`, { latest: answer.latest_version })}{' '}
      {answer.release_url && isHttpUrl(answer.release_url) && (
        <Link href={answer.release_url} target="_blank" rel="noreferrer">
          {translate(`${V}release_notes`)}
        </Link>
      )}
    </Alert>
  );
}

function useUpdateCheck() {
  const gateway = useGateway();
  return useMutation({ mutationFn: () => gateway.checkUpdate() });
}

export function VersionSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const { status } = useStatus();
  const section = useSection(options, ['UpdateCheckUrl']);
  const check = useUpdateCheck();
  const unknown = translate(`${V}unknown`);
  const prepare = () => {
    const url = (section.form.UpdateCheckUrl ?? '').trim();
    return url === '' || isHttpUrl(url) ? { UpdateCheckUrl: url } : `${V}feed_invalid`;
  };
  return (
    <SettingSection
      title={translate(`${V}title`)}
      busy={section.busy}
      onSave={() => void section.submit(prepare)}
      actions={
        <Button variant="outlined" onClick={() => check.mutate()} disabled={check.isPending}>
          {translate(check.isPending ? `${V}checking` : `${V}check`)}
        </Button>
      }
    >
      <Typography>
        {translate(`${V}version`)}: <span aria-label="version">{status?.version || unknown}</span>
      </Typography>
      <Typography>
        {translate(`${V}start_time`)}: <span aria-label="start_time">{formatTimestamp(status?.start_time) || unknown}</span>
      </Typography>
      <OptionField
        section={section}
        name="UpdateCheckUrl"
        label={`${V}feed`}
        hint={translate(`${V}feed_hint`)}
        placeholder="https://api.github.com/repos/<owner>/<repo>/releases/latest"
        wide
      />
      <UpdateResult check={check} />
    </SettingSection>
  );
}
