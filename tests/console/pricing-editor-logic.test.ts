import { describe, expect, it } from 'vitest';
import { zh } from '../../src/i18n/zh';
import { en } from '../../src/i18n/en';
import {
  addRow,
  batchSet,
  completionPriceOf,
  completionRatioFromPrices,
  displayPrices,
  draftFromRow,
  draftToRow,
  emptyDraft,
  filterRows,
  optionsFromRows,
  parseAmount,
  ratioToTokenPrice,
  rowsFromOptions,
  switchMode,
  switchTokenInput,
  tokenPriceToRatio,
  unsetModels,
  upsertRow,
  validateRows,
  type PriceDraft,
  type PricingRow,
  type Problem,
  type Result,
} from '../../src/customPages/setting/pricing/pricing';

const row = (name: string, ratio = '', completionRatio = '', price = ''): PricingRow => ({ name, price, ratio, completionRatio });

/** The Chinese text a person sees for a problem (without arguments substituted). */
function zhText(problem: Problem): string {
  const value = problem.message.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], zh);
  expect(typeof value, problem.message).toBe('string');
  return value as string;
}

function problemOf<T>(result: Result<T>): Problem {
  if (result.ok) throw new Error('expected a problem');
  return result.problem;
}

function valueOf<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`unexpected problem ${result.problem.message}`);
  return result.value;
}

describe('conversions', () => {
  it('ratio × 2 is USD per 1M input tokens, and back', () => {
    expect(ratioToTokenPrice(1)).toBe(2);
    expect(ratioToTokenPrice(0.075)).toBe(0.15);
    expect(ratioToTokenPrice(1.25)).toBe(2.5);
    expect(tokenPriceToRatio(2.5)).toBe(1.25);
    expect(tokenPriceToRatio(0.15)).toBe(0.075);
  });

  it('completion price = input price × completion ratio, without float noise', () => {
    expect(completionPriceOf(1.25, 4)).toBe(10);
    expect(completionPriceOf(0.05, 3)).toBe(0.3);
    expect(completionRatioFromPrices(2.5, 10)).toBe(4);
    expect(completionRatioFromPrices(0.1, 0.3)).toBe(3);
  });

  it('derives no completion ratio from an input price of 0', () => {
    expect(completionRatioFromPrices(0, 5)).toBeUndefined();
  });

  it('reads amounts: empty is unset, negatives and words are refused', () => {
    expect(parseAmount('')).toBeNull();
    expect(parseAmount(' 0.5 ')).toBe(0.5);
    expect(parseAmount('1e-6')).toBe(0.000001);
    expect(parseAmount('-1')).toBeNaN();
    expect(parseAmount('abc')).toBeNaN();
    expect(parseAmount('0x10')).toBeNaN();
  });

  it('shows USD per 1M tokens for per-token rows only', () => {
    expect(displayPrices(row('a', '1.25', '4'))).toEqual({ tokenPrice: 2.5, completionTokenPrice: 10 });
    // An empty completion ratio is billed at the model family's built-in one, as the pricing page shows.
    expect(displayPrices(row('a', '1.25'))).toEqual({ tokenPrice: 2.5, completionTokenPrice: 2.5 });
    expect(displayPrices(row('gpt-4o-2024-08-06', '1.25'))).toEqual({ tokenPrice: 2.5, completionTokenPrice: 10 });
    expect(displayPrices(row('claude-3-haiku', '1', '2'))).toEqual({ tokenPrice: 2, completionTokenPrice: 4 });
    expect(displayPrices(row('a', '1.25', 'x'))).toEqual({ tokenPrice: 2.5 });
    expect(displayPrices(row('a', '1', '', '0.04'))).toEqual({});
  });
});

describe('rows and options', () => {
  const values = {
    ModelPrice: '{"dall-e-3":0.04}',
    ModelRatio: '{"gpt-4o":1.25,"gpt-4o-mini":0.075}',
    CompletionRatio: '{"gpt-4o":4}',
  };

  it('builds one sorted row per model named in any option', () => {
    expect(rowsFromOptions(values)).toEqual([
      row('dall-e-3', '', '', '0.04'),
      row('gpt-4o', '1.25', '4'),
      row('gpt-4o-mini', '0.075'),
    ]);
  });

  it('ignores options that are not JSON objects of numbers', () => {
    expect(rowsFromOptions({ ModelPrice: 'nope', ModelRatio: '[1]', CompletionRatio: '{"x":"1"}' })).toEqual([]);
  });

  it('keeps the stored text of an option whose content did not change', () => {
    const out = optionsFromRows(rowsFromOptions(values), values);
    expect(out).toEqual(values);
  });

  it('writes changed options as JSON of numbers, empty cells left out', () => {
    const rows = [row('dall-e-3', '', '', '0.05'), row('gpt-4o', '1.25', '4'), row('new-model', '0.5', '')];
    const out = optionsFromRows(rows, values);
    expect(JSON.parse(out.ModelPrice)).toEqual({ 'dall-e-3': 0.05 });
    expect(JSON.parse(out.ModelRatio)).toEqual({ 'gpt-4o': 1.25, 'new-model': 0.5 });
    expect(out.CompletionRatio).toBe(values.CompletionRatio);
  });

  it('lists enabled models that have neither price nor ratio, once each', () => {
    const rows = [row('gpt-4o', '1.25'), row('dall-e-3', '', '', '0.04'), row('only-completion', '', '3')];
    expect(unsetModels(['gpt-4o', 'z-model', 'dall-e-3', 'only-completion', 'z-model', ' '], rows)).toEqual([
      'only-completion',
      'z-model',
    ]);
  });

  it('searches names case-insensitively, trimmed', () => {
    const rows = [row('GPT-4o'), row('claude-3')];
    expect(filterRows(rows, '  gpt ').map((r) => r.name)).toEqual(['GPT-4o']);
    expect(filterRows(rows, '')).toHaveLength(2);
  });
});

describe('duplicates', () => {
  const rows = [row('gpt-4o', '1.25')];

  it('the pricing table refuses a model name that already exists', () => {
    const problem = problemOf(addRow(rows, row('gpt-4o', '2')));
    expect(zhText(problem)).toBe('模型名称已存在');
  });

  it('adds a new model in name order, trimmed', () => {
    expect(valueOf(addRow(rows, row(' a-model ', '1'))).map((r) => r.name)).toEqual(['a-model', 'gpt-4o']);
  });

  it('refuses an empty name', () => {
    expect(zhText(problemOf(addRow(rows, row('  ', '1'))))).toBe('请输入模型名称');
  });

  it('setting an existing model (edit, unset list) updates it instead', () => {
    expect(upsertRow(rows, row('gpt-4o', '2'))).toEqual([row('gpt-4o', '2')]);
    expect(upsertRow(rows, row('b', '1')).map((r) => r.name)).toEqual(['b', 'gpt-4o']);
  });
});

describe('price modes', () => {
  const tokenDraft: PriceDraft = { ...emptyDraft('gpt-4o'), ratio: '1.25', completionRatio: '4' };

  it('a row with a fixed price opens per-request, otherwise per-token', () => {
    expect(draftFromRow(row('dall-e-3', '', '', '0.04')).mode).toBe('per_request');
    expect(draftFromRow(row('gpt-4o', '1.25')).mode).toBe('per_token');
  });

  it('per-request clears the ratios; per-token clears the fixed price', () => {
    const perRequest = switchMode({ ...tokenDraft, tokenPrice: '2.5', completionTokenPrice: '10' }, 'per_request');
    expect(perRequest).toMatchObject({
      mode: 'per_request',
      ratio: '',
      completionRatio: '',
      tokenPrice: '',
      completionTokenPrice: '',
    });
    const perToken = switchMode({ ...perRequest, price: '0.04' }, 'per_token');
    expect(perToken).toMatchObject({ mode: 'per_token', price: '' });
  });

  it('switching ratio to price converts ratio × 2 and the completion price', () => {
    const priced = valueOf(switchTokenInput(tokenDraft, 'price'));
    expect(priced).toMatchObject({ tokenInput: 'price', tokenPrice: '2.5', completionTokenPrice: '10' });
    const back = valueOf(switchTokenInput({ ...priced, tokenPrice: '3', completionTokenPrice: '12' }, 'ratio'));
    expect(back).toMatchObject({ tokenInput: 'ratio', ratio: '1.5', completionRatio: '4' });
  });

  it('switching back from an input price of 0 with an output price is refused', () => {
    const draft = { ...emptyDraft('m'), tokenInput: 'price' as const, tokenPrice: '0', completionTokenPrice: '5' };
    expect(zhText(problemOf(switchTokenInput(draft, 'ratio')))).toBe('输入价格为 0，无法换算补全倍率');
  });

  it('switching with a non-number typed is refused', () => {
    expect(zhText(problemOf(switchTokenInput({ ...tokenDraft, ratio: 'x' }, 'price')))).toBe('请输入数字');
    expect(zhText(problemOf(switchTokenInput({ ...tokenDraft, completionRatio: '-2' }, 'price')))).toBe('不能为负数');
  });

  it('turns each mode into a row', () => {
    expect(valueOf(draftToRow(tokenDraft))).toEqual(row('gpt-4o', '1.25', '4'));
    expect(valueOf(draftToRow({ ...emptyDraft('img'), mode: 'per_request', price: '0.04', ratio: '9' }))).toEqual(
      row('img', '', '', '0.04'),
    );
    const byPrice = { ...emptyDraft('m'), tokenInput: 'price' as const, tokenPrice: '0.3', completionTokenPrice: '1.2' };
    expect(valueOf(draftToRow(byPrice))).toEqual(row('m', '0.15', '4'));
    expect(valueOf(draftToRow({ ...byPrice, completionTokenPrice: '' }))).toEqual(row('m', '0.15', ''));
  });

  it('checks every dialog input', () => {
    const text = (draft: PriceDraft) => zhText(problemOf(draftToRow(draft)));
    expect(text({ ...tokenDraft, name: ' ' })).toBe('请输入模型名称');
    expect(text({ ...tokenDraft, ratio: '' })).toBe('请输入模型倍率');
    expect(text({ ...tokenDraft, ratio: 'abc' })).toBe('请输入数字');
    expect(text({ ...tokenDraft, ratio: '-1' })).toBe('不能为负数');
    expect(text({ ...tokenDraft, completionRatio: 'x' })).toBe('请输入数字');
    expect(text({ ...emptyDraft('m'), mode: 'per_request' })).toBe('请输入模型固定价格');
    expect(text({ ...emptyDraft('m'), mode: 'per_request', price: '1元' })).toBe('请输入数字');
    const byPrice = { ...emptyDraft('m'), tokenInput: 'price' as const };
    expect(text(byPrice)).toBe('请输入输入价格');
    expect(text({ ...byPrice, tokenPrice: '0', completionTokenPrice: '3' })).toBe('输入价格为 0，无法换算补全倍率');
    expect(text({ ...byPrice, tokenPrice: '1', completionTokenPrice: 'abc' })).toBe('请输入数字');
  });
});

describe('batch set', () => {
  const rows = [row('a', '1', '2'), row('b', '', '', '0.1'), row('c', '3')];

  it('sets a ratio on the selected models and switches them to per-token', () => {
    expect(valueOf(batchSet(rows, ['a', 'b'], 'ratio', '0.5'))).toEqual([row('a', '0.5', '2'), row('b', '0.5'), row('c', '3')]);
  });

  it('sets a fixed price and clears the ratios', () => {
    expect(valueOf(batchSet(rows, ['a'], 'price', '0.02'))[0]).toEqual(row('a', '', '', '0.02'));
  });

  it('sets only the completion ratio', () => {
    expect(valueOf(batchSet(rows, ['b', 'c'], 'completionRatio', '4')).slice(1)).toEqual([
      row('b', '', '4', '0.1'),
      row('c', '3', '4'),
    ]);
  });

  it('sets both ratios', () => {
    expect(valueOf(batchSet(rows, ['b'], 'both', '1', '3'))[1]).toEqual(row('b', '1', '3'));
  });

  it('needs a selection, a value, a valid number, and both values in both-ratio mode', () => {
    const text = (result: Result<PricingRow[]>) => zhText(problemOf(result));
    expect(text(batchSet(rows, [], 'ratio', '1'))).toBe('请先选择需要批量设置的模型');
    expect(text(batchSet(rows, ['a'], 'ratio', ' '))).toBe('请输入填充值');
    expect(text(batchSet(rows, ['a'], 'ratio', 'abc'))).toBe('请输入有效的数字');
    expect(text(batchSet(rows, ['a'], 'price', '-1'))).toBe('不能为负数');
    expect(text(batchSet(rows, ['a'], 'both', '1', ''))).toBe('请同时输入模型倍率和补全倍率');
    expect(text(batchSet(rows, ['a'], 'both', '', '2'))).toBe('请同时输入模型倍率和补全倍率');
    expect(text(batchSet(rows, ['a'], 'both', '1', 'x'))).toBe('请输入有效的数字');
  });
});

describe('table validation', () => {
  it('names the model whose value is not a number or is negative', () => {
    const notNumber = validateRows([row('ok', '1'), row('bad', '1.2.3')]);
    expect(notNumber?.args).toEqual({ model: 'bad' });
    expect(zhText(notNumber!)).toBe('%{model}：请输入数字');
    const negative = validateRows([row('neg', '', '', '-0.5')]);
    expect(zhText(negative!)).toBe('%{model}：不能为负数');
    expect(validateRows([row('a', '1', '', ''), row('b', '', '', '0.04')])).toBeNull();
  });

  it('every pricing message exists in both languages', () => {
    const zhErrors = Object.keys(zh.settings_operation.pricing.errors).sort();
    expect(Object.keys(en.settings_operation.pricing.errors).sort()).toEqual(zhErrors);
  });
});
