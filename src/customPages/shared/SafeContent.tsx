/**
 * Admin-authored content (home page, about, notice): a https:// address is shown in an iframe,
 * anything else is markdown (HTML passes through marked) and is ALWAYS sanitised before it
 * reaches the DOM, so a stored `<script>` or `onerror=` cannot run in a visitor's session.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

export function isExternalPage(content: string): boolean {
  return content.trim().startsWith('https://');
}

/** Markdown (or HTML) to sanitised HTML. */
export function toSafeHtml(source: string): string {
  const html = marked.parse(source, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html);
}

interface SafeContentProps {
  content: string;
  /** Accessible name of the iframe when the content is an address. */
  title: string;
  sx?: SxProps<Theme>;
}

export function SafeContent({ content, title, sx }: SafeContentProps) {
  if (isExternalPage(content)) {
    return (
      <Box
        component="iframe"
        src={content.trim()}
        title={title}
        referrerPolicy="no-referrer"
        sx={{ border: 0, width: '100%', height: 'calc(100vh - 56px)', display: 'block', ...sx }}
      />
    );
  }
  return (
    <Box
      className="safe-content"
      sx={{ '& img': { maxWidth: '100%' }, '& a': { color: 'primary.main' }, overflowWrap: 'anywhere', ...sx }}
      dangerouslySetInnerHTML={{ __html: toSafeHtml(content) }}
    />
  );
}
