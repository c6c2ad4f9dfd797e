import type { Validator } from 'react-admin';
import type { Mode, ValidationRule } from './types';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * One rule as a react-admin validator. Like react-admin's own, every rule but `required` lets an
 * empty value through, so "at least 8 characters if given" is just `minLength`.
 */
function toValidator(rule: ValidationRule): Validator {
  const { kind, value, message } = rule;
  return (input: unknown) => {
    if (kind === 'required') return isEmpty(input) ? message : undefined;
    if (isEmpty(input)) return undefined;
    const text = String(input);
    const number = Number(input);
    switch (kind) {
      case 'minLength':
        return text.length < Number(value) ? message : undefined;
      case 'maxLength':
        return text.length > Number(value) ? message : undefined;
      case 'min':
        return !(number >= Number(value)) ? message : undefined;
      case 'max':
        return !(number <= Number(value)) ? message : undefined;
      case 'integer':
        return Number.isInteger(number) ? undefined : message;
      case 'pattern':
        return value instanceof RegExp && !value.test(text) ? message : undefined;
      case 'custom':
        return rule.test && !rule.test(input) ? message : undefined;
    }
  };
}

export function validatorsFor(rules: ValidationRule[] | undefined, mode: Mode): Validator[] {
  return (rules ?? []).filter((rule) => !rule.on || rule.on === mode).map(toValidator);
}
