/** Placeholder until the wallet page (/topup) lands. */
export default function TopUpPage() {
  return null;
}
