/** resources.midjourneys: Drawing logs (/midjourney) */
export const midjourneys = {
  name: '绘图日志',
};
