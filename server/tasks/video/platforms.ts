/** The video vendors by the channel type that reaches them (the family's numbering). */
import { soraVideo } from '../../relay/providers/sora/video.js';
import { veoVideo } from '../../relay/providers/veo/video.js';
import { klingVideo } from '../../relay/providers/kling/video.js';
import { seedanceVideo } from '../../relay/providers/seedance/video.js';
import { hailuoVideo } from '../../relay/providers/hailuo/video.js';
import { vertexVideo } from '../../relay/providers/vertex/video.js';
import type { VideoPlatform } from './platform.js';

export const VIDEO_PLATFORMS = {
  24: veoVideo,
  35: hailuoVideo,
  41: vertexVideo,
  45: seedanceVideo,
  50: klingVideo,
  54: seedanceVideo,
  55: soraVideo,
} satisfies Record<number, VideoPlatform>;

export const VIDEO_TYPES: ReadonlySet<number> = new Set(Object.keys(VIDEO_PLATFORMS).map(Number));

export function videoPlatformOf(type: number): VideoPlatform | undefined {
  return (VIDEO_PLATFORMS as Partial<Record<number, VideoPlatform>>)[type];
}
