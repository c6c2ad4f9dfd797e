import { useEffect, useState } from 'react';
import { Box, Typography } from '@mui/material';
import DOMPurify from 'dompurify';
import { useTranslate } from 'react-admin';

const FOOTER_KEY = 'footer_html';
const RECHECK_MS = 200;
const RECHECKS = 5;

/**
 * The custom footer HTML from the status (sanitized), or the default credit line. The stored copy
 * is re-read every 200 ms, at most 5 times, because the status may land after the first paint.
 */
export function Footer({ footerHtml, systemName }: { footerHtml: string | undefined; systemName: string }) {
  const translate = useTranslate();
  const [stored, setStored] = useState(() => localStorage.getItem(FOOTER_KEY) ?? '');
  useEffect(() => {
    let checks = 0;
    const timer = setInterval(() => {
      checks += 1;
      setStored(localStorage.getItem(FOOTER_KEY) ?? '');
      if (checks >= RECHECKS) clearInterval(timer);
    }, RECHECK_MS);
    return () => clearInterval(timer);
  }, []);
  const html = footerHtml || stored;
  return (
    <Box
      component="footer"
      sx={{ py: 2, px: 2, textAlign: 'center', color: 'text.secondary', borderTop: 1, borderColor: 'divider' }}
    >
      {html ? (
        <Box className="custom-footer" dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />
      ) : (
        <Typography variant="body2">{translate('app.footer.credit', { name: systemName })}</Typography>
      )}
    </Box>
  );
}
