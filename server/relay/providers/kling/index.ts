/** Kling (type 50): a task platform; server/tasks/video submits and polls its videos (video.ts). */
import { taskPlatform } from '../task-platforms/index.js';
import { klingAuthorization } from './video.js';

export const kling = taskPlatform('Kling', (key) => ({ authorization: klingAuthorization(key) }));
