/** settings: the /setting page's tabs and what every tab shares (save messages). */
export const settings = {
  tabs: {
    operation: '运营设置',
    ratelimit: '速率限制',
    models: '模型相关设置',
    system: '系统设置',
    other: '其他设置',
  },
  common: {
    no_change: '你似乎并没有修改什么',
    saved: '保存成功',
    save_partial: '部分保存失败，请重试',
    save_failed: '保存失败，请重试',
    save_failed_single: '保存失败',
    invalid_json: '不是合法的 JSON 字符串',
  },
};
