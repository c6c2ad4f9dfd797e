/**
 * The gateway's calls that are not CRUD on a resource, as custom dataProvider methods: the console's
 * dataProvider spreads them in (`{ ...customMethods, getList, … }`), and pages call them through
 * react-admin's data layer (`useGateway()` with react-query's useQuery / useMutation), so loading,
 * caching and refetching work the same everywhere. Option keys are typed from the server's option
 * registry: a misspelt key is a compile error.
 */
import { useDataProvider, type DataProvider } from 'react-admin';
import type { OidcEndpoints } from '../../server/options/oidc-discovery';
import type { OptionKey } from '../../server/options/registry';
import type { PricingAnswer, PricingItem } from '../../server/pricing/schemas';
import type { SiteStatus, UpdateCheck } from '../../server/status/schemas';
import type { SyncResult } from '../../server/catalog/schemas';
import type { TopUpPage } from '../../server/topup/schemas';
import { api, refusalError, request } from './client';
import { channelMethods } from './channelMethods';
import { logMethods } from './logMethods';
import { redemptionMethods } from './redemptionMethods';
import { securityMethods } from './securityMethods';
import { statusMethods } from './statusMethods';
import { tokenMethods } from './tokenMethods';
import { selfMethods } from './selfMethods';
import { walletMethods } from './walletMethods';
import { subscriptionMethods } from './subscriptionMethods';

export type { OptionKey };
/** The admin-authored texts the public pages show, by their route under /api/. */
export type PublicText = 'notice' | 'about' | 'home_page_content';

/** Options as the server stores them: strings, by key. */
export type OptionValues = Partial<Record<OptionKey, string>>;

export const customMethods = {
  ...securityMethods,
  ...logMethods,
  ...channelMethods,
  ...selfMethods,
  ...walletMethods,
  ...subscriptionMethods,
  ...redemptionMethods,
  ...statusMethods,
  ...tokenMethods,
  /** Every option the root may read (secrets are never sent back). */
  async getOptions(): Promise<OptionValues> {
    const rows = await api.get<Array<{ key: OptionKey; value: string | null }>>('/api/option/');
    return Object.fromEntries(rows.map((row) => [row.key, row.value ?? '']));
  },
  /** Saves one option; the server checks it (and the options it depends on). */
  async updateOption(key: OptionKey, value: string): Promise<void> {
    await api.put('/api/option/', { key, value });
  },
  /** Puts every model ratio back to the built-in defaults. */
  async resetModelRatios(): Promise<void> {
    await api.post('/api/option/rest_model_ratio');
  },
  /** The endpoints in an OIDC provider's well-known document, fetched by the gateway. */
  discoverOidc(url: string): Promise<OidcEndpoints> {
    return api.post<OidcEndpoints>('/api/option/oidc_discovery', { url });
  },
  /** Models an enabled channel serves that no model metadata row names yet. */
  missingModels(): Promise<string[]> {
    return api.get<string[]>('/api/models/missing');
  },
  /** Creates rows (and vendors) for the served models the official catalogue knows. */
  syncOfficialModels(): Promise<SyncResult> {
    return api.post<SyncResult>('/api/models/sync_upstream', {});
  },
  /** An admin-authored text ('' when none is set). */
  async getPublicText(name: PublicText): Promise<string> {
    return (await api.get<string | null>(`/api/${name}`)) ?? '';
  },
  /** The pricing table: models, vendors, group ratios and the caller's usable groups. */
  async getPricing(): Promise<PricingAnswer> {
    // The groups and vendors come beside `data`, outside the usual envelope.
    const answer = (await request<PricingItem[]>('GET', '/api/pricing')) as Partial<PricingAnswer>;
    if (!answer.success) throw refusalError({ ...answer, message: answer.message ?? '' });
    return {
      success: true,
      message: '',
      data: answer.data ?? [],
      vendors: answer.vendors ?? [],
      group_ratio: answer.group_ratio ?? {},
      usable_group: answer.usable_group ?? {},
    };
  },
  /** The public site status (name, flags, login methods, setup state). */
  getStatus(): Promise<SiteStatus> {
    return api.get<SiteStatus>('/api/status');
  },
  /** The running version against the newest release of the configured feed. */
  checkUpdate(): Promise<UpdateCheck> {
    return api.get<UpdateCheck>('/api/status/update');
  },
  /** A page of the signed-in person's own top-up orders, newest first. */
  getMyTopUpOrders(page: number, pageSize: number): Promise<TopUpPage> {
    return api.get<TopUpPage>(`/api/user/topup/self?p=${page}&page_size=${pageSize}`);
  },
};

export type CustomMethods = typeof customMethods;
export type GatewayDataProvider = DataProvider & CustomMethods;

/** The dataProvider with the gateway's custom methods. */
export function useGateway(): GatewayDataProvider {
  return useDataProvider<GatewayDataProvider>();
}
