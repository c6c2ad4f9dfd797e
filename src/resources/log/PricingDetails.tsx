import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { LogOther } from './types';

/**
 * How a consume row was priced, from its `other`: a fixed price per call, or the model, group and
 * completion ratios with the cache figures when the request hit a cache.
 */
/** Whether `other` says how the row was priced. */
export function hasPricing(other: LogOther): boolean {
  return other.model_price !== undefined || other.model_ratio !== undefined;
}

/** Notes the server keeps beside the price: a cut stream, a model priced by the default ratio. */
interface PricingNotes {
  interrupted?: unknown;
  unset_price?: boolean;
}

export function PricingDetails({ other }: { other: LogOther }) {
  const translate = useTranslate();
  const t = (key: string, n: number) => translate(`resources.log.pricing.${key}`, { n });
  const notes = other as LogOther & PricingNotes;
  const parts: string[] = [];
  if (other.model_price !== undefined && other.model_price > 0) {
    parts.push(t('model_price', other.model_price));
    if (other.group_ratio !== undefined) parts.push(t('group_ratio', other.group_ratio));
  } else {
    if (other.model_ratio !== undefined) parts.push(t('model_ratio', other.model_ratio));
    if (other.group_ratio !== undefined) parts.push(t('group_ratio', other.group_ratio));
    if (other.completion_ratio !== undefined) parts.push(t('completion_ratio', other.completion_ratio));
    if (other.cache_tokens) {
      parts.push(t('cache_tokens', other.cache_tokens));
      if (other.cache_ratio !== undefined) parts.push(t('cache_ratio', other.cache_ratio));
    }
    if (other.cache_creation_tokens) parts.push(t('cache_creation_tokens', other.cache_creation_tokens));
  }
  if (notes.unset_price) parts.push(translate('resources.log.pricing.unset_price'));
  if (notes.interrupted) parts.push(translate('resources.log.pricing.interrupted'));
  if (parts.length === 0) return null;
  return (
    <Typography variant="caption" color="text.secondary" component="div" data-testid="pricing-details">
      {parts.join(translate('resources.log.pricing.separator'))}
    </Typography>
  );
}
