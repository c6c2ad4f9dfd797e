/**
 * The fields of an /v1/images/edits form checked at the edge, as OpenAI documents them for its image
 * models: a prompt, one to 16 images (`image` or `image[]`) in PNG, WebP or JPEG, an optional PNG
 * mask. A form failing these is refused before any channel is tried, so nothing is charged. A file
 * sent without a type (some clients send bytes as application/octet-stream) is judged by its bytes.
 */
const MAX_IMAGES = 16;
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/webp', 'image/jpeg', 'image/jpg']);

function isFile(value: File | string): value is File {
  return typeof value !== 'string';
}

const UNTYPED: ReadonlySet<string> = new Set(['', 'application/octet-stream']);

/** The image type the file's first bytes show: PNG, JPEG or WebP; null for anything else. */
async function sniffedType(file: File): Promise<string | null> {
  const head = Buffer.from(await file.slice(0, 12).arrayBuffer());
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

async function typeOf(file: File): Promise<string | null> {
  return UNTYPED.has(file.type) ? sniffedType(file) : file.type;
}

/** Why the form cannot be an image edit, or null when it can. */
export async function imageEditProblem(form: FormData): Promise<string | null> {
  const prompt = form.get('prompt');
  if (typeof prompt !== 'string' || prompt.trim() === '') return 'prompt is required';
  const images = [...form.getAll('image'), ...form.getAll('image[]')];
  if (images.length === 0) return 'image is required: send one or more image files';
  if (images.length > MAX_IMAGES) return `too many images: at most ${MAX_IMAGES}`;
  for (const image of images) {
    if (!isFile(image)) return 'image must be a file';
    if (!IMAGE_TYPES.has((await typeOf(image)) ?? ''))
      return `image ${JSON.stringify(image.name)} must be a PNG, WebP or JPEG file`;
  }
  const mask = form.get('mask');
  if (mask !== null && (!isFile(mask) || (await typeOf(mask)) !== 'image/png')) return 'mask must be a PNG file';
  const n = form.get('n');
  if (n !== null && !(typeof n === 'string' && /^(10|[1-9])$/.test(n))) return 'n must be an integer from 1 to 10';
  return null;
}
