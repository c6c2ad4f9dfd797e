/** Errors of the relay, answered in OpenAI's shape: `{error: {message, type, param, code}}`. */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly type = 'new_api_error',
  ) {
    super(message);
  }

  body(): { error: { message: string; type: string; param: null; code: string } } {
    return { error: { message: this.message, type: this.type, param: null, code: this.code } };
  }
}

export const relayErrors = {
  noToken: () => new RelayError(401, '未提供令牌', 'missing_api_key'),
  invalidToken: () => new RelayError(401, '无效的令牌', 'invalid_api_key'),
  token: (status: number, message: string) => new RelayError(status, message, 'invalid_api_key'),
  userBanned: () => new RelayError(403, '用户已被封禁', 'user_banned'),
  groupDenied: (group: string) => new RelayError(403, `令牌分组 ${group} 已被禁用`, 'group_denied'),
  modelRequired: () => new RelayError(400, 'model is required', 'invalid_request', 'invalid_request_error'),
  modelDenied: (model: string) => new RelayError(403, `该令牌无权访问模型 ${model}`, 'model_not_allowed'),
  priceNotSet: (model: string) =>
    new RelayError(
      500,
      `模型 ${model} 倍率或价格未配置，请联系管理员设置或开始自用模式；Model ${model} ratio or price not set`,
      'model_price_error',
    ),
  userQuota: () => new RelayError(403, '用户额度不足', 'insufficient_user_quota'),
  tokenQuota: () => new RelayError(403, '令牌额度不足', 'pre_consume_token_quota_failed'),
  noChannel: (model: string, group: string) =>
    new RelayError(503, `当前分组 ${group} 下对于模型 ${model} 无可用渠道`, 'model_not_found'),
  badBody: (message: string) => new RelayError(400, message, 'invalid_request', 'invalid_request_error'),
};
