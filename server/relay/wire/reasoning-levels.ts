/**
 * One scale for reasoning effort across protocols, on Google's documented mapping of OpenAI's
 * levels (low, medium, high → 1,024, 8,192 and 24,576 thinking tokens; none → no thinking): an
 * effort becomes that budget toward Claude and Gemini 2.5, and a budget becomes the level whose
 * budget it reaches. Gemini 3 takes levels instead of budgets (`geminiThinkingLevel`).
 */
export type Effort = 'minimal' | 'low' | 'medium' | 'high';

const BUDGETS: Record<Effort, number> = { minimal: 512, low: 1024, medium: 8192, high: 24576 };

/** The thinking budget of an effort; 0 for `none`; null for a value that is no effort. */
export function budgetForEffort(effort: unknown): number | null {
  if (effort === 'none') return 0;
  if (effort === 'xhigh' || effort === 'max') return BUDGETS.high;
  return typeof effort === 'string' && effort in BUDGETS ? BUDGETS[effort as Effort] : null;
}

/** The effort for a thinking budget: up to 1,024 low, up to 8,192 medium, above high. */
export function effortForBudget(budget: number): 'low' | 'medium' | 'high' {
  return budget <= BUDGETS.low ? 'low' : budget <= BUDGETS.medium ? 'medium' : 'high';
}

/**
 * Gemini 3's thinking level for an effort. Pro models take only low and high (medium rounds up);
 * Flash models take all four. Gemini 3 cannot turn thinking off: `none` asks for the least.
 */
export function geminiThinkingLevel(model: string, effort: unknown): Effort | null {
  const flash = model.includes('flash');
  if (effort === 'none' || effort === 'minimal') return flash ? 'minimal' : 'low';
  if (effort === 'low') return 'low';
  if (effort === 'medium') return flash ? 'medium' : 'high';
  if (effort === 'high' || effort === 'xhigh' || effort === 'max') return 'high';
  return null;
}

/** Gemini 2.5's budget range: Pro thinks always (128–32,768), Flash-Lite from 512, Flash from 0 (24,576 at most). */
export function clampGeminiBudget(model: string, budget: number): number {
  if (model.includes('-pro')) return Math.min(32768, Math.max(128, budget));
  if (budget === 0) return 0;
  return Math.min(24576, Math.max(model.includes('flash-lite') ? 512 : 1, budget));
}
