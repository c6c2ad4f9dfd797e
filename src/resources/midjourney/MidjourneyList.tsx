/** Placeholder until the Drawing logs (/midjourney) screen lands. */
export default function MidjourneyList() {
  return null;
}
