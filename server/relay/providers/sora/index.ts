/**
 * OpenAI Sora (type 55): a task platform — the video code in server/tasks/video submits, polls and
 * streams its videos (video.ts) — so it serves no relay endpoint of its own.
 */
import { taskPlatform } from '../task-platforms/index.js';

export const sora = taskPlatform('Sora', (key) => ({ authorization: `Bearer ${key}` }));
