/** The bodies of the account e-mails. Admin-set names are escaped: the mail is HTML. */

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export interface Mail {
  subject: string;
  html: string;
}

export function verificationMail(systemName: string, code: string, minutes: number): Mail {
  const name = escapeHtml(systemName);
  return {
    subject: `${systemName} 邮箱验证邮件`,
    html:
      `<p>您好，你正在进行 ${name} 邮箱验证。</p>` +
      `<p>您的验证码为：<strong>${escapeHtml(code)}</strong></p>` +
      `<p>验证码 ${minutes} 分钟内有效，如果不是本人操作，请忽略。</p>`,
  };
}

export function resetMail(systemName: string, link: string, minutes: number): Mail {
  const name = escapeHtml(systemName);
  const href = escapeHtml(link);
  return {
    subject: `${systemName} 密码重置`,
    html:
      `<p>您好，你正在进行 ${name} 密码重置。</p>` +
      `<p>点击 <a href="${href}">此处</a> 进行密码重置。</p>` +
      `<p>如果链接无法点击，请尝试点击下面的链接或将其复制到浏览器中打开：<br>${href}</p>` +
      `<p>重置链接 ${minutes} 分钟内有效，如果不是本人操作，请忽略。</p>`,
  };
}
