/**
 * The text of a container's log or exec output as the engine sends it without a TTY: frames of an
 * 8-byte header (stream, 3 zero bytes, big-endian length) and their bytes, stdout and stderr
 * interleaved as written. A cut last frame keeps what arrived of it.
 */
export function demultiplex(data: Buffer): string {
  const parts: Buffer[] = [];
  for (let offset = 0; offset + 8 <= data.length;) {
    const length = data.readUInt32BE(offset + 4);
    parts.push(data.subarray(offset + 8, offset + 8 + length));
    offset += 8 + length;
  }
  return Buffer.concat(parts).toString('utf8');
}
