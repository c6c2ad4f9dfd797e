/**
 * What the Gemini 3 tool-run tests check after a run through the gateway: that Gemini got each
 * step's thought signature back (the stand-in refuses a missing or misplaced one, and counts skip
 * values), that every call's log row billed the stand-in's usage, and the tools the runs declare.
 */
import { expect } from 'vitest';
import type { FidelityFixture } from './fidelity-fixture.js';

export const GEMINI_3 = 'gemini-3-pro-preview';
export const PROMPT = 'What are the weather and the time in Paris?';
export const TOOL_NAMES = ['get_weather', 'get_time'];
export const PARAMETERS: { type: 'object'; properties: Record<string, { type: string }>; required: string[] } = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

/** A tool's answer, as every run's executor gives it. */
export const toolResult = (name: string): string => JSON.stringify({ tool: name, ok: true });

/** The stand-in's final answer after both tools answered. */
export const FINAL = `The tool answered ${JSON.stringify({ tool: 'get_time', ok: true })}.`;

export interface RunMark {
  requests: number;
  usages: number;
  skipped: number;
  logId: number;
}

/** Where the stand-in and the log stand before a run. */
export async function mark(f: FidelityFixture): Promise<RunMark> {
  await f.flush();
  const last = await f.tg.gateway.ctx.db
    .selectFrom('logs')
    .select('id')
    .where('user_id', '=', f.userId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return {
    requests: f.gemini.requests.length,
    usages: f.gemini.usages.length,
    skipped: f.gemini.skippedSignatures,
    logId: last?.id ?? 0,
  };
}

/**
 * Since `before`: three calls (two tool steps, then the answer); the last one sent both steps back
 * with the signatures Gemini issued (the stand-in checked them; none was a skip value); each call's
 * log row billed that call's usage.
 */
export async function expectSignedRun(f: FidelityFixture, before: RunMark): Promise<void> {
  const sent = f.gemini.requests.slice(before.requests);
  expect(sent).toHaveLength(3);
  const steps = (sent.at(-1)!.body.contents as Array<{ role: string; parts: Array<Record<string, any>> }>).filter(
    (c) => c.role === 'model' && c.parts.some((p) => p.functionCall),
  );
  expect(steps.map((s) => s.parts.find((p) => p.functionCall)!.functionCall.name)).toEqual(TOOL_NAMES);
  for (const step of steps) expect(step.parts.find((p) => p.functionCall)!.thoughtSignature).toMatch(/^[A-Za-z0-9+/=]{32}$/);
  expect(f.gemini.skippedSignatures).toBe(before.skipped);

  await f.flush();
  const logs = await f.tg.gateway.ctx.db
    .selectFrom('logs')
    .select(['prompt_tokens', 'completion_tokens', 'model_name'])
    .where('user_id', '=', f.userId)
    .where('id', '>', before.logId)
    .orderBy('id', 'asc')
    .execute();
  const usages = f.gemini.usages.slice(before.usages);
  expect(logs.map((l) => [l.model_name, l.prompt_tokens, l.completion_tokens])).toEqual(
    usages.map((u) => [GEMINI_3, u.promptTokenCount, u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0)]),
  );
}

/** A tool-call id the gateway handed out: it carries the signature's key and fits OpenAI's 40-character limit. */
export function expectSealedId(id: string): void {
  expect(id).toMatch(/^call_gs1_[A-Za-z0-9_-]{22}$/);
}
