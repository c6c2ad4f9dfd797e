/**
 * The server answers in Chinese (the reference's words). For English readers the console carries
 * English for the messages a person meets most (spec section 8, "server messages carried in the
 * translation tables"): exact texts, and patterns for the ones with values in them. Anything not
 * listed is shown as the server sent it.
 */
export const EXACT: Record<string, string> = {
  // Login and registration
  '用户名或密码错误，或用户已被封禁': 'Wrong username or password, or the user is banned',
  用户已被封禁: 'The user is banned',
  管理员关闭了密码登录: 'The administrator has turned off password login',
  管理员关闭了新用户注册: 'The administrator has turned off registration',
  '管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册':
    'The administrator has turned off registration with a password; please register with a third-party account',
  '管理员开启了邮箱验证，请输入邮箱地址和验证码': 'E-mail verification is on: please enter your e-mail address and the code',
  验证码错误或已过期: 'The verification code is wrong or has expired',
  请输入邮箱地址和验证码: 'Please enter the e-mail address and the verification code',
  邮箱地址已被占用: 'This e-mail address is already in use',
  无效的邮箱地址: 'Invalid e-mail address',
  该邮箱地址未注册: 'This e-mail address is not registered',
  重置链接非法或已过期: 'The reset link is invalid or has expired',
  两次输入的密码不一致: 'The passwords do not match',
  原密码错误: 'The current password is wrong',
  新密码不能与原密码相同: 'The new password must differ from the current one',
  '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中':
    "The administrator restricts e-mail domains; your address's domain is not allowed",
  '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。':
    'The administrator restricts e-mail aliases; your address was refused because it contains special characters.',
  'Turnstile 校验失败，请刷新重试！': 'The human check failed, please refresh and try again!',
  // Third-party login and binding
  'state 参数无效或已过期，请重新登录': 'The login request is invalid or has expired, please log in again',
  'Telegram 登录信息校验失败': 'The Telegram login could not be verified',
  'Telegram 登录信息已过期，请重新登录': 'The Telegram login has expired, please log in again',
  '绑定成功！': 'Bound successfully!',
  // Tokens
  未提供令牌: 'No token was provided',
  无效的令牌: 'Invalid token',
  该令牌已过期: 'This token has expired',
  该令牌额度已用尽: "This token's quota is used up",
  // Redemption and wallet
  无效的兑换码: 'Invalid redemption code',
  该兑换码已被使用: 'This redemption code has already been used',
  '管理员未开启在线充值！': 'The administrator has not enabled online top-up!',
  // Quota
  用户额度不足: 'Insufficient user quota',
  令牌额度不足: 'Insufficient token quota',
  '邀请额度不足！': 'Not enough invitation quota!',
  // Channels
  无效的渠道状态: 'Invalid channel status',
  // Rate limits, permissions, server errors
  '请求过于频繁，请稍后再试': 'Too many requests, please try again later',
  '无权进行此操作，未登录且未提供 access token': 'Not allowed: not logged in and no access token provided',
  '无权进行此操作，未登录或登录已过期': 'Not allowed: not logged in, or the session has expired',
  '无权进行此操作，access token 无效': 'Not allowed: invalid access token',
  '无权进行此操作，权限不足': 'Not allowed: insufficient permissions',
  用户不存在: 'The user does not exist',
};

const PATTERNS: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^当前分组 (.+) 下对于模型 (.+) 无可用渠道$/, (group, model) => `No channel available for model ${model} in group ${group}`],
  [
    /^请求过于频繁：每 (\d+(?:\.\d+)?) 分钟最多 (\d+) 次成功请求，请稍后再试$/,
    (m, n) => `Too many requests: at most ${n} successful requests every ${m} minute(s), try again later`,
  ],
  [
    /^请求过于频繁：每 (\d+(?:\.\d+)?) 分钟最多 (\d+) 次请求，请稍后再试$/,
    (m, n) => `Too many requests: at most ${n} requests every ${m} minute(s), try again later`,
  ],
  [
    /^管理员未开启通过 ?(.+?) ?登录以及注册$/,
    (provider) => `The administrator has not enabled login and registration with ${provider}`,
  ],
  [/^该 ?(.+?) ?账户已被其他用户绑定$/, (provider) => `This ${provider} account is already bound to another user`],
  [/^(.+?) ?授权失败，请稍后再试$/, (provider) => `${provider} authorization failed, please try again later`],
  [/^充值数量不能小于 (\d+)$/, (n) => `The top-up amount cannot be less than ${n}`],
  [/^密码长度至少为(\d+)个字符$/, (n) => `The password must be at least ${n} characters`],
  [/^Webhook地址不可用：(.+)$/, (detail) => `The webhook address cannot be used: ${detail}`],
  [
    /^登录失败次数过多，该账户已被暂时锁定，请(\d+)分钟后再试$/,
    (m) => `Too many failed logins: this account is locked, try again in ${m} minute(s)`,
  ],
];

/** The message in the reader's language: English when there is a translation, else as sent. */
export function localizeServerMessage(message: string, locale: string): string {
  if (locale !== 'en' || message === '') return message;
  const exact = EXACT[message];
  if (exact) return exact;
  for (const [pattern, render] of PATTERNS) {
    const m = pattern.exec(message);
    if (m) return render(...m.slice(1));
  }
  return message;
}
