/** Placeholder until the Redemption codes (/redemption) screen lands. */
export default function RedemptionList() {
  return null;
}
