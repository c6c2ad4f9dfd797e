/**
 * The fields of an /v1/images/edits form checked at the edge, as OpenAI documents them for its image
 * models: a prompt, one to 16 images (`image` or `image[]`) in PNG, WebP or JPEG, an optional PNG
 * mask. A form failing these is refused before any channel is tried, so nothing is charged.
 */
const MAX_IMAGES = 16;
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/webp', 'image/jpeg', 'image/jpg']);

function isFile(value: File | string): value is File {
  return typeof value !== 'string';
}

/** Why the form cannot be an image edit, or null when it can. */
export function imageEditProblem(form: FormData): string | null {
  const prompt = form.get('prompt');
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'prompt is required';
  const images = [...form.getAll('image'), ...form.getAll('image[]')];
  if (images.length === 0) return 'image is required: send one or more image files';
  if (images.length > MAX_IMAGES) return `too many images: at most ${MAX_IMAGES}`;
  for (const image of images) {
    if (!isFile(image)) return 'image must be a file';
    if (!IMAGE_TYPES.has(image.type)) return `image ${JSON.stringify(image.name)} must be a PNG, WebP or JPEG file`;
  }
  const mask = form.get('mask');
  if (mask !== null && (!isFile(mask) || mask.type !== 'image/png')) return 'mask must be a PNG file';
  const n = form.get('n');
  if (n !== null && !(typeof n === 'string' && /^(10|[1-9])$/.test(n))) return 'n must be an integer from 1 to 10';
  return null;
}
