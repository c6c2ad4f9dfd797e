// The stand-ins as their own process for benchmarks: OpenAI's, Claude's and Gemini's; prints their
// URLs, serves until killed.
import { startOpenAIStandIn } from '../tests/helpers/upstreams/openai.js';
import { startClaudeStandIn } from '../tests/helpers/upstreams/claude.js';
import { startGeminiStandIn } from '../tests/helpers/upstreams/gemini.js';

const [upstream, claude, gemini] = await Promise.all([
  startOpenAIStandIn({ record: false }),
  startClaudeStandIn(),
  startGeminiStandIn(),
]);
// The Claude and Gemini stand-ins record every request: a long bench would grow them without end.
setInterval(() => {
  claude.requests.length = 0;
  gemini.requests.length = 0;
  gemini.usages.length = 0;
}, 1000).unref();
console.log(`upstream ${upstream.url} claude ${claude.url} gemini ${gemini.url}`);
