/**
 * One admin-authored text (the notice, the about page, the home page's content) through the
 * dataProvider's `getPublicText` and react-query: `null` while loading, '' on failure.
 */
import { useQuery } from '@tanstack/react-query';
import { useGateway, type PublicText } from '../../api/customMethods';

export function useOptionText(name: PublicText): string | null {
  const gateway = useGateway();
  const { data, isError } = useQuery({
    queryKey: ['public-text', name],
    queryFn: () => gateway.getPublicText(name),
    retry: false,
  });
  if (isError) return '';
  return data ?? null;
}
