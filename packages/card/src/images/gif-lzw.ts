/**
 * GIF's variable-width LZW, both ways. Used only to re-encode interlaced first frames (see
 * gif-first-frame.ts); everything else is handed to giflib still compressed.
 */
const MAX_CODE_WIDTH = 12;
const TABLE_SIZE = 1 << MAX_CODE_WIDTH;

/**
 * Decodes `pixelCount` color indices from a GIF LZW stream (the joined sub-block payload).
 * Returns `undefined` when the stream is malformed or ends before the image is complete; extra data
 * after the last pixel is ignored, as giflib does.
 */
export function decodeGifLzw(data: Uint8Array, minimumCodeSize: number, pixelCount: number): Uint8Array | undefined {
  const clearCode = 1 << minimumCodeSize;
  const endCode = clearCode + 1;
  const prefix = new Uint16Array(TABLE_SIZE);
  const suffix = new Uint8Array(TABLE_SIZE);
  const firstByte = new Uint8Array(TABLE_SIZE);
  const length = new Uint16Array(TABLE_SIZE);
  for (let code = 0; code < clearCode; code += 1) {
    suffix[code] = code;
    firstByte[code] = code;
    length[code] = 1;
  }

  const pixels = new Uint8Array(pixelCount);
  let written = 0;
  let codeWidth = minimumCodeSize + 1;
  let nextCode = endCode + 1;
  let previous = -1;
  let bitBuffer = 0;
  let bitCount = 0;
  let position = 0;

  while (written < pixelCount) {
    while (bitCount < codeWidth) {
      if (position >= data.length) return undefined;
      bitBuffer |= (data[position] as number) << bitCount;
      position += 1;
      bitCount += 8;
    }
    const code = bitBuffer & ((1 << codeWidth) - 1);
    bitBuffer >>>= codeWidth;
    bitCount -= codeWidth;

    if (code === clearCode) {
      codeWidth = minimumCodeSize + 1;
      nextCode = endCode + 1;
      previous = -1;
      continue;
    }
    if (code === endCode) return undefined;
    if (previous === -1) {
      if (code >= clearCode) return undefined;
      pixels[written++] = code;
      previous = code;
      continue;
    }
    if (code > nextCode || (code === nextCode && nextCode >= TABLE_SIZE)) return undefined;

    // `code === nextCode` is the KwKwK case: the string being defined right now, previous + its own first byte.
    const first = code === nextCode ? (firstByte[previous] as number) : (firstByte[code] as number);
    if (nextCode < TABLE_SIZE) {
      prefix[nextCode] = previous;
      suffix[nextCode] = first;
      firstByte[nextCode] = firstByte[previous] as number;
      length[nextCode] = (length[previous] as number) + 1;
      nextCode += 1;
      if (nextCode === 1 << codeWidth && codeWidth < MAX_CODE_WIDTH) codeWidth += 1;
    }
    written = writeString(code, prefix, suffix, length, pixels, written);
    previous = code;
  }
  return pixels;
}

/** Writes the string for `code` (walking its prefix chain backwards), clipped to the image; returns the new count. */
function writeString(code: number, prefix: Uint16Array, suffix: Uint8Array, length: Uint16Array, pixels: Uint8Array, written: number): number {
  const stringLength = length[code] as number;
  let at = written + stringLength - 1;
  let current = code;
  for (let step = 0; step < stringLength; step += 1) {
    if (at < pixels.length) pixels[at] = suffix[current] as number;
    current = prefix[current] as number;
    at -= 1;
  }
  return Math.min(written + stringLength, pixels.length);
}

/**
 * Encodes color indices without compression: 9-bit literal codes and a clear code every 254 pixels,
 * before the table would grow to 10-bit codes. About 1.1 bytes per pixel; simple and obviously
 * correct, which matters more here than size (this only runs for interlaced first frames).
 * Returns the minimum code size byte followed by the data as sub-blocks and their terminator.
 */
export function encodeGifLzwUncompressed(pixels: Uint8Array): Buffer {
  const minimumCodeSize = 8;
  const clearCode = 1 << minimumCodeSize;
  const endCode = clearCode + 1;
  const codeWidth = minimumCodeSize + 1;
  const literalsPerClear = clearCode - 2;

  const codeCount = pixels.length + Math.ceil(pixels.length / literalsPerClear) + 1;
  const packed = new Uint8Array(Math.ceil((codeCount * codeWidth) / 8));
  let packedLength = 0;
  let bitBuffer = 0;
  let bitCount = 0;
  const emit = (code: number): void => {
    bitBuffer |= code << bitCount;
    bitCount += codeWidth;
    while (bitCount >= 8) {
      packed[packedLength++] = bitBuffer & 0xff;
      bitBuffer >>>= 8;
      bitCount -= 8;
    }
  };
  for (let index = 0; index < pixels.length; index += 1) {
    if (index % literalsPerClear === 0) emit(clearCode);
    emit(pixels[index] as number);
  }
  emit(endCode);
  if (bitCount > 0) packed[packedLength++] = bitBuffer & 0xff;

  const blockCount = Math.ceil(packedLength / 255);
  const output = Buffer.alloc(1 + packedLength + blockCount + 1);
  output[0] = minimumCodeSize;
  let at = 1;
  for (let offset = 0; offset < packedLength; offset += 255) {
    const size = Math.min(255, packedLength - offset);
    output[at++] = size;
    output.set(packed.subarray(offset, offset + size), at);
    at += size;
  }
  output[at] = 0;
  return output;
}
