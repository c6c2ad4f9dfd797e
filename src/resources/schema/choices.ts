import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import type { Choice, ChoiceLoader, FieldSchema } from './types';
import { storedUser } from '../../api/client';
import { useGateway, type GatewayDataProvider } from '../../api/customMethods';

function isLoader(choices: FieldSchema['choices']): choices is ChoiceLoader {
  return !!choices && !Array.isArray(choices);
}

/** Loaded choice lists, one request per key for the page's lifetime (a failed one is retried). */
const loaded = new Map<string, Promise<Choice[]>>();

function loadOnce(loader: ChoiceLoader, gateway: GatewayDataProvider): Promise<Choice[]> {
  // Loaded choices come from guarded endpoints: nothing to ask before a login.
  if (!storedUser()) return Promise.resolve([]);
  let pending = loaded.get(loader.key);
  if (!pending) {
    pending = loader.load(gateway);
    pending.catch(() => loaded.delete(loader.key));
    loaded.set(loader.key, pending);
  }
  return pending;
}

/** Forgets loaded choices (after a change on the server, and between tests). */
export function clearLoadedChoices(): void {
  loaded.clear();
}

/**
 * Forgets the choices loaded under a resource's name (a loader keyed `vendor` lists the vendor
 * resource's records): the dataProvider calls it after every write to that resource, so a vendor
 * just created is offered in the model form without a reload.
 */
export function forgetChoicesOf(resource: string): void {
  loaded.delete(resource);
}

/**
 * The choices of a select field: static ones translated, loaded ones fetched once per key and
 * shared by every list, filter and form that uses them.
 */
export function useChoices(field: FieldSchema): { choices: Choice[]; isPending: boolean } {
  const translate = useTranslate();
  const loader = isLoader(field.choices) ? field.choices : null;
  const gateway = useGateway();
  // Each mount asks loadOnce again: it answers the shared list, or reads afresh once forgotten.
  const query = useQuery({
    queryKey: ['choices', loader?.key],
    queryFn: () => (loader ? loadOnce(loader, gateway) : Promise.resolve([])),
    enabled: loader !== null,
    retry: false,
  });
  if (loader) return { choices: query.data ?? [], isPending: query.isPending };
  const fixed = (field.choices as Choice[] | undefined) ?? [];
  return { choices: fixed.map((c) => ({ id: c.id, name: translate(c.name, { _: c.name }) })), isPending: false };
}

/** The label key of a value among static choices, the unknown label, or the value itself. */
export function choiceLabel(field: FieldSchema, value: unknown): string {
  if (Array.isArray(field.choices)) {
    const match = field.choices.find((c) => String(c.id) === String(value));
    if (match) return match.name;
  }
  if (field.unknownChoice) return field.unknownChoice;
  return value === undefined || value === null ? '' : String(value);
}
