/** resources.redemptions: Redemption codes (/redemption) */
export const redemptions = {
  name: 'Redemption codes',
};
