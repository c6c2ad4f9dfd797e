/** /chat/{id} and /chat2link: chat links built from the user's first enabled token. */
export default function ChatPage() {
  return null;
}
