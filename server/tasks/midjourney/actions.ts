/**
 * Midjourney-proxy submissions as data: which submit paths exist, the action each one performs
 * (for a button press, read from its customId), the priced model name of the action, the earlier
 * task a follow-up acts on, and the body the upstream receives once the drawing options are applied.
 */
import type { OptionStore } from '../../options/store.js';
import { isRecord, str } from '../channel.js';
import { taskErrors } from '../errors.js';
import type { MJ_ACTIONS } from '../list-schemas.js';

/** Every action a submission may perform: those the console names, and video and edits. */
export type MjAction = (typeof MJ_ACTIONS)[number] | 'VIDEO' | 'EDITS';

/** Submit kinds: the last segment of `/mj/submit/<kind>` (face swap is `/mj/insight-face/swap`). */
export const SUBMIT_KINDS = [
  'imagine',
  'change',
  'simple-change',
  'describe',
  'blend',
  'action',
  'modal',
  'shorten',
  'upload-discord-images',
  'video',
  'edits',
  'swap-face',
] as const;
export type SubmitKind = (typeof SUBMIT_KINDS)[number];

export function isSubmitKind(v: string): v is SubmitKind {
  return (SUBMIT_KINDS as readonly string[]).includes(v);
}

/** The upstream path of a submit kind (without a mode prefix). */
export function upstreamPath(kind: SubmitKind): string {
  return kind === 'swap-face' ? '/mj/insight-face/swap' : `/mj/submit/${kind}`;
}

/** The ModelPrice key of an action: `mj_` + the action in lower case; face swap is `swap_face`. */
export function modelOf(action: string): string {
  return action === 'SWAP_FACE' ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** Actions whose submission opens a window the client then fills in through `/mj/submit/modal`. */
export const WINDOW_ACTIONS: ReadonlySet<string> = new Set(['INPAINT', 'CUSTOM_ZOOM']);

/** The action a button's customId performs, or null for a button this gateway does not price. */
export function actionOfCustomId(customId: string): MjAction | null {
  const prefixes: Array<[string, MjAction]> = [
    ['MJ::JOB::upsample', 'UPSCALE'],
    ['MJ::JOB::variation::', 'VARIATION'],
    ['MJ::JOB::high_variation::', 'HIGH_VARIATION'],
    ['MJ::JOB::low_variation::', 'LOW_VARIATION'],
    ['MJ::JOB::reroll::', 'REROLL'],
    ['MJ::JOB::pan_', 'PAN'],
    ['MJ::JOB::animate', 'VIDEO'],
    ['MJ::Outpaint::', 'ZOOM'],
    ['MJ::CustomZoom::', 'CUSTOM_ZOOM'],
    ['MJ::Inpaint::', 'INPAINT'],
  ];
  for (const [prefix, action] of prefixes) if (customId.startsWith(prefix)) return action;
  if (customId.includes('MJ::Picread::Retry')) return 'DESCRIBE';
  return null;
}

export interface SubmitPlan {
  kind: SubmitKind;
  action: MjAction;
  /** The caller's earlier task this one acts on (its channel serves the call). */
  originId: string | null;
  prompt: string | null;
  body: Record<string, unknown>;
}

const CHANGE_ACTIONS: ReadonlySet<string> = new Set(['UPSCALE', 'VARIATION', 'REROLL']);

/** `"<taskId> U2"`, `"<taskId> V1"` or `"<taskId> R"`. */
function parseSimpleChange(content: string): { taskId: string; action: MjAction; index: number | null } | null {
  const m = /^\s*(\S+)\s+([UV])([1-4])\s*$/i.exec(content);
  if (m) return { taskId: m[1]!, action: m[2]!.toUpperCase() === 'U' ? 'UPSCALE' : 'VARIATION', index: Number(m[3]) };
  const r = /^\s*(\S+)\s+R\s*$/i.exec(content);
  return r ? { taskId: r[1]!, action: 'REROLL', index: null } : null;
}

function required(body: Record<string, unknown>, field: string): string {
  const v = str(body[field]).trim();
  if (v === '') throw taskErrors.invalid(`${field} is required`);
  return v;
}

/** Reads what a submission asks for; refuses malformed ones before anything is charged. */
export function planSubmit(kind: SubmitKind, raw: unknown): SubmitPlan {
  if (!isRecord(raw)) throw taskErrors.invalid('request body must be a JSON object');
  const body: Record<string, unknown> = { ...raw };
  const prompt = typeof body.prompt === 'string' ? body.prompt : null;
  const plan = (action: MjAction, originId: string | null = null): SubmitPlan => ({ kind, action, originId, prompt, body });
  switch (kind) {
    case 'imagine':
      required(body, 'prompt');
      return plan('IMAGINE');
    case 'shorten':
      required(body, 'prompt');
      return plan('SHORTEN');
    case 'describe':
      return plan('DESCRIBE');
    case 'blend':
      return plan('BLEND');
    case 'upload-discord-images':
      return plan('UPLOAD');
    case 'edits':
      return plan('EDITS');
    case 'swap-face':
      return plan('SWAP_FACE');
    case 'video': {
      const origin = str(body.taskId).trim();
      return plan('VIDEO', origin === '' ? null : origin);
    }
    case 'change': {
      const action = str(body.action).toUpperCase();
      if (!CHANGE_ACTIONS.has(action)) throw taskErrors.invalid('action must be UPSCALE, VARIATION or REROLL');
      return plan(action as MjAction, required(body, 'taskId'));
    }
    case 'simple-change': {
      const parsed = parseSimpleChange(str(body.content));
      if (!parsed) throw taskErrors.invalid('content must look like "<taskId> U1", "<taskId> V1" or "<taskId> R"');
      return plan(parsed.action, parsed.taskId);
    }
    case 'action': {
      const customId = required(body, 'customId');
      const action = actionOfCustomId(customId);
      if (!action) throw taskErrors.invalid(`unsupported customId: ${customId.slice(0, 100)}`);
      return plan(action, required(body, 'taskId'));
    }
    case 'modal':
      return plan('MODAL', required(body, 'taskId'));
  }
}

const MODE_FLAGS = /\s*--(?:fast|relax|turbo)\b/gi;

/**
 * The drawing options applied to what the upstream receives: without MjNotifyEnabled the
 * client's `notifyHook` is dropped, without MjAccountFilterEnabled its `accountFilter`, and with
 * MjModeClearEnabled the speed flags (--fast, --relax, --turbo) leave the prompt.
 */
export function upstreamBody(plan: SubmitPlan, options: OptionStore): Record<string, unknown> {
  const body = { ...plan.body };
  if (!options.bool('MjNotifyEnabled')) delete body.notifyHook;
  if (!options.bool('MjAccountFilterEnabled')) delete body.accountFilter;
  if (options.bool('MjModeClearEnabled') && typeof body.prompt === 'string') {
    body.prompt = body.prompt.replace(MODE_FLAGS, '').trim();
  }
  return body;
}

/** Speed-mode path prefixes clients may put before `/mj` (midjourney-proxy's `/mj-fast/mj/…`, and `/fast/mj/…`). */
export const MODE_PREFIXES: ReadonlyArray<{ prefix: string; mode: 'fast' | 'turbo' | 'relax' | null }> = [
  { prefix: '', mode: null },
  ...(['fast', 'turbo', 'relax'] as const).flatMap((mode) => [
    { prefix: `/mj-${mode}`, mode },
    { prefix: `/${mode}`, mode },
  ]),
];
