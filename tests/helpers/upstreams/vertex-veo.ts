/**
 * Veo on the Vertex AI stand-in: `predictLongRunning` starts an operation named
 * `projects/{project}/locations/{region}/publishers/google/models/{model}/operations/{id}`, and
 * `fetchPredictOperation {operationName}` reports it, moving a step each time (prompt words as in
 * video.ts: `will-fail`, `fail-now`, `rejected`; `filtered` finishes with every video withheld by
 * the safety filters). A finished operation carries the video inline, base64 in its JSON answer,
 * written in 64 KiB pieces.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phase, VIDEO_BYTES, type VideoStandInTask } from './video.js';

interface Place {
  project: string;
  region: string;
  model: string;
}

export interface VeoOperations {
  tasks: Map<string, VideoStandInTask & { name: string }>;
  /** Delay of every fetchPredictOperation answer (to overlap concurrent pollers). */
  queryDelayMs: number;
  /** The video every finished operation carries. */
  file: Buffer;
  handles(action: string): boolean;
  answer(call: Place & { action: string }, body: Record<string, unknown>, res: ServerResponse): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  for (let i = 0; i < text.length; i += 65_536) res.write(text.slice(i, i + 65_536));
  res.end();
}

const invalid = (res: ServerResponse, message: string) =>
  send(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });

export function createVeoOperations(): VeoOperations {
  const ops: VeoOperations = {
    tasks: new Map(),
    queryDelayMs: 0,
    file: VIDEO_BYTES,
    handles: (action) => action === 'predictLongRunning' || action === 'fetchPredictOperation',
    async answer(call, body, res) {
      if (call.action === 'predictLongRunning') {
        const instance = (Array.isArray(body.instances) ? body.instances[0] : undefined) as Record<string, unknown> | undefined;
        const parameters = (body.parameters ?? {}) as Record<string, unknown>;
        const prompt = String(instance?.prompt ?? '');
        if (!prompt || parameters.sampleCount !== 1) return invalid(res, 'instances[0].prompt and sampleCount are required');
        if (prompt.includes('rejected')) return invalid(res, 'The prompt could not be submitted.');
        const id = randomUUID();
        const name = `projects/${call.project}/locations/${call.region}/publishers/google/models/${call.model}/operations/${id}`;
        const seconds = Number(parameters.durationSeconds ?? 8);
        ops.tasks.set(name, { id, name, model: call.model, prompt, seconds, size: '', step: 0 });
        return send(res, 200, { name });
      }
      const name = String(body.operationName ?? '');
      const t = ops.tasks.get(name);
      if (!t || !name.includes(`/models/${call.model}/operations/`)) {
        return send(res, 404, { error: { code: 404, message: 'Operation not found', status: 'NOT_FOUND' } });
      }
      if (ops.queryDelayMs) await new Promise((r) => setTimeout(r, ops.queryDelayMs));
      t.step++;
      const p = phase(t);
      if (p === 'queued' || p === 'in_progress') return send(res, 200, { name, done: false });
      if (p === 'failed') return send(res, 200, { name, done: true, error: { code: 13, message: 'Video generation failed.' } });
      const type = 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse';
      if (t.prompt.includes('filtered')) {
        const reasons = ['The video was withheld by the safety filters.'];
        return send(res, 200, {
          name,
          done: true,
          response: { '@type': type, raiMediaFilteredCount: 1, raiMediaFilteredReasons: reasons, videos: [] },
        });
      }
      const videos = [{ bytesBase64Encoded: ops.file.toString('base64'), mimeType: 'video/mp4' }];
      return send(res, 200, { name, done: true, response: { '@type': type, raiMediaFilteredCount: 0, videos } });
    },
  };
  return ops;
}
