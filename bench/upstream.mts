// The OpenAI stand-in as its own process for benchmarks: prints its URL, serves until killed.
import { startOpenAIStandIn } from '../tests/helpers/upstreams/openai.js';

const upstream = await startOpenAIStandIn({ record: false });
console.log(`upstream ${upstream.url}`);
