/** resources.midjourneys: Drawing logs (/midjourney) */
export const midjourneys = {
  name: 'Drawing logs',
};
