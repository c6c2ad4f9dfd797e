/**
 * A request body converted once per request: the exchange asks for the converted request more than
 * once (to send it, to read the answer, to read an error), and conversions are not free.
 */
const converted = new WeakMap<object, unknown>();

export function convertOnce<T>(body: object, convert: () => T): T {
  if (converted.has(body)) return converted.get(body) as T;
  const result = convert();
  converted.set(body, result);
  return result;
}
