/**
 * The signed-in person's own account, as custom dataProvider methods (spread into customMethods):
 * the profile and the models their group may call, the profile, password and setting changes, the
 * system access token, the e-mail binding, the invitation transfer and the account's deletion.
 */
import type {
  AffTransferResult,
  SelfUser,
  UpdateSelfBody,
  UserGroups,
  UserSettingBody,
  UserSettingView,
} from '../../server/users/schemas';
import { api } from './client';

export const selfMethods = {
  getSelf(): Promise<SelfUser> {
    return api.get<SelfUser>('/api/user/self');
  },
  async getMyModels(): Promise<string[]> {
    return (await api.get<string[] | null>('/api/user/models')) ?? [];
  },
  /** The invitation code (the server creates one on first ask). */
  getAffCode(): Promise<string> {
    return api.get<string>('/api/user/aff');
  },
  /** The groups this person may use, with their description and ratio. */
  getMyGroups(): Promise<UserGroups> {
    return api.get<UserGroups>('/api/user/self/groups');
  },
  /** A new display name, or a new password with the current one. */
  updateSelf(body: UpdateSelfBody): Promise<SelfUser> {
    return api.put<SelfUser>('/api/user/self', body);
  },
  saveMySettings(body: UserSettingBody): Promise<UserSettingView> {
    return api.put<UserSettingView>('/api/user/setting', body);
  },
  /** A new system access token (the previous one stops working). */
  newAccessToken(): Promise<string> {
    return api.get<string>('/api/user/token');
  },
  /** Binds the e-mail the code was sent to; answers the bound address. */
  bindEmail(email: string, code: string): Promise<string> {
    return api.post<string>('/api/oauth/email/bind', { email, code });
  },
  /** Moves `quota` of invitation earnings into the balance. */
  transferAffQuota(quota: number): Promise<AffTransferResult> {
    return api.post<AffTransferResult>('/api/user/aff_transfer', { quota });
  },
  async deleteSelf(): Promise<void> {
    await api.delete('/api/user/self');
  },
};
