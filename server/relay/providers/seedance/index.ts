/** Volcengine Seedance (DoubaoVideo, type 54): a task platform; server/tasks/video submits and polls its videos (video.ts). */
import { taskPlatform } from '../task-platforms/index.js';

export const seedance = taskPlatform('DoubaoVideo', (key) => ({ authorization: `Bearer ${key}` }));
