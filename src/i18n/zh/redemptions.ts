/** resources.redemptions: Redemption codes (/redemption) */
export const redemptions = {
  name: '兑换码',
};
