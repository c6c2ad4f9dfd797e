/**
 * Google Veo on a Vertex AI channel (type 41): `predictLongRunning` under the channel's project and
 * region starts an operation, `fetchPredictOperation` reports it, both with the service account's
 * bearer token. With no storage bucket asked for, the finished video comes inline, base64 inside the
 * operation's JSON: nothing of it is stored — serving the file asks for the operation again and
 * decodes the base64 as it streams in (server/tasks/video/inline-file.ts).
 */
import type { Channel } from '../../../db/types.js';
import { rec, text, type PlatformCall, type VideoPlatform } from '../../../tasks/video/platform.js';
import { veoPrediction } from '../veo/video.js';
import { authorizationFor } from './vertex-request.js';
import { predictLongRunningUrl, publisherModelUrl } from './vertex-urls.js';

/** The names Vertex gives operations; nothing else is asked after. */
const OPERATION = /^projects\/([\w.:-]+)\/locations\/([a-z0-9-]+)\/publishers\/google\/models\/([\w.@-]+)\/operations\/[\w.-]+$/;
const INLINE = 'bytesBase64Encoded';

async function fetchOperation(channel: Channel, id: string): Promise<PlatformCall> {
  const m = OPERATION.exec(id);
  if (!m) throw new Error('not a Vertex AI operation name');
  const [, project = '', region = '', model = ''] = m;
  // The operation is asked of the project and region that made it, as its name says.
  const url = publisherModelUrl(channel, { project, region, publisher: 'google', model }, 'fetchPredictOperation');
  return { method: 'POST', url, headers: await authorizationFor(channel, model), body: { operationName: id }, inline: INLINE };
}

export const vertexVideo: VideoPlatform = {
  name: 'Vertex AI Veo',
  async submit(channel, req) {
    const { instances, parameters } = veoPrediction(req);
    return {
      url: predictLongRunningUrl(channel, req.model),
      headers: await authorizationFor(channel, req.model),
      body: { instances, parameters: { ...parameters, sampleCount: 1 } },
    };
  },
  submitted(status, answer) {
    const a = rec(answer);
    const name = text(a.name);
    if (status === 200 && OPERATION.test(name)) return { id: name };
    return { error: text(rec(a.error).message) };
  },
  query: fetchOperation,
  state(status, answer) {
    const a = rec(answer);
    if (status !== 200 || !text(a.name)) return null;
    if (a.done !== true) return { status: 'in_progress', progress: 50 };
    if (a.error !== undefined)
      return { status: 'failed', progress: 100, error: text(rec(a.error).message) || 'video generation failed' };
    const result = rec(a.response);
    const videos = Array.isArray(result.videos) ? result.videos : [];
    // The base64 was dropped while reading (an empty string is left): the file is there to fetch.
    if (typeof rec(videos[0])[INLINE] === 'string') return { status: 'completed', progress: 100 };
    const filtered = Array.isArray(result.raiMediaFilteredReasons) ? result.raiMediaFilteredReasons.map(text).join('; ') : '';
    return { status: 'failed', progress: 100, error: filtered || 'no video in the answer' };
  },
  content: (channel, id) => fetchOperation(channel, id),
};
