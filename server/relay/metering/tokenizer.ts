/**
 * Local token counting, for upstreams that report no usage. The o200k encoding (GPT-4o family) is
 * loaded in the background after start-up — it takes a fraction of a second — so neither start-up
 * nor the first request waits for it unless a count is needed before it is ready.
 */
type Counter = (text: string) => number;

let counter: Counter | null = null;
let loading: Promise<Counter> | null = null;

export function loadTokenizer(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    counter = (text: string) => m.countTokens(text);
    return counter;
  });
  return loading;
}

/** Exact count once the encoding is loaded. */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  return (counter ?? (await loadTokenizer()))(text);
}

/**
 * A count for code that cannot wait (an answer converted synchronously): exact once the encoding is
 * loaded — callers load it while their request is in flight — estimated before.
 */
export function countTokensNow(text: string): number {
  if (text === '') return 0;
  if (!counter) void loadTokenizer();
  return counter ? counter(text) : estimateTokens(text);
}

/** A cheap upper-side estimate for pre-charging: about 4 characters a token, CJK one each. */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x2e80) cjk++;
  return Math.ceil((text.length - cjk) / 4) + cjk;
}
